import assert from "node:assert/strict";
import { FD_HEADROOM, maxSocketsUnder, portProblem, socketProblem, socketsOf } from "./socket_budget.ts";

Deno.test("socketsOf counts connections of closed loads and the cap of open ones", () => {
  assert.deepEqual(socketsOf({ model: "connections", connections: 50 }), {
    open: false,
    sockets: 50,
    whole: 50,
  });
  assert.deepEqual(socketsOf({ model: "throughput", connections: 8, ratePerSec: 100 }), {
    open: false,
    sockets: 8,
    whole: 8,
  });
  assert.deepEqual(socketsOf({ model: "rate", maxConnections: 1000 }), {
    open: true,
    sockets: 1000,
    whole: 1000,
  });
  assert.deepEqual(socketsOf({ model: "count", connections: 10, ratePerSec: 5, maxConnections: 300 }), {
    open: true,
    sockets: 300,
    whole: 300,
  });
  assert.deepEqual(socketsOf({ model: "count", connections: 10, maxConnections: 300 }), {
    open: false,
    sockets: 10,
    whole: 10,
  });
});

Deno.test("socketProblem says the limit, what was asked and how to raise it; none when it fits", () => {
  assert.equal(socketProblem(206, 256, "-c"), undefined);
  assert.equal(socketProblem(5000, null, "-c"), undefined, "an unknown limit is not checked");
  assert.equal(socketProblem(5000, Infinity, "-c"), undefined);
  assert.equal(
    socketProblem(300, 256, "-c"),
    "needs 300 sockets but the open-file limit is 256 (50 kept for the runtime); raise it (ulimit -n 512) " +
      "or use at most -c 206",
  );
  assert.equal(maxSocketsUnder(256), 256 - FD_HEADROOM);
  assert.equal(maxSocketsUnder(10), 1);
});

Deno.test("socketsOf names a ramp's largest stage, the first of equals", () => {
  const stages = [{ target: 10 }, { target: 300 }, { target: 300 }, { target: 0 }];
  assert.deepEqual(socketsOf({ model: "ramping-connections", stages }), {
    open: false,
    sockets: 300,
    whole: 300,
    stage: 1,
  });
});

Deno.test("socketsOf holds a segment to its share of the whole load, rounded up", () => {
  assert.deepEqual(socketsOf({ model: "connections", connections: 10, segment: { count: 4 } }), {
    open: false,
    sockets: 3,
    whole: 10,
  });
});

Deno.test("portProblem names the ports the source addresses open quickly and the fix; none when they hold", () => {
  assert.equal(portProblem(14_116, 1, 28_232), undefined);
  assert.equal(portProblem(42_000, 3, 28_232), undefined);
  assert.equal(portProblem(60_000, 1, null), undefined, "unknown ports are not checked");
  // Past half the range (ports of the other parity), each connect searches every port in use.
  assert.equal(
    portProblem(15_000, 1, 28_232),
    "needs 15000 connections to one address but 1 source address opens 14116 quickly each (half of " +
      "28232 local ports, net.ipv4.ip_local_port_range: past that half the kernel searches every port in " +
      "use on each connect, too slowly to open the crowd); spread them over 2 source addresses " +
      "(--source-addresses 127.0.0.1-127.0.0.2 on loopback, or the interface's own), or over machines " +
      "(--segment)",
  );
  assert.match(portProblem(90_000, 2, 28_232)!, /but 2 source addresses open 14116 quickly each.*over 7 /);
});
