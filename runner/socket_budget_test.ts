import assert from "node:assert/strict";
import { FD_HEADROOM, maxSocketsUnder, socketProblem, socketsOf } from "./socket_budget.ts";

Deno.test("socketsOf counts connections of closed loads and the cap of open ones", () => {
  assert.deepEqual(socketsOf({ model: "connections", connections: 50 }), { open: false, sockets: 50 });
  assert.deepEqual(socketsOf({ model: "throughput", connections: 8, ratePerSec: 100 }), {
    open: false,
    sockets: 8,
  });
  assert.deepEqual(socketsOf({ model: "rate", maxConnections: 1000 }), { open: true, sockets: 1000 });
  assert.deepEqual(socketsOf({ model: "count", connections: 10, ratePerSec: 5, maxConnections: 300 }), {
    open: true,
    sockets: 300,
  });
  assert.deepEqual(socketsOf({ model: "count", connections: 10, maxConnections: 300 }), {
    open: false,
    sockets: 10,
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
