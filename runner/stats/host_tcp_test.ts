import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { hostTcpDelta } from "./host.ts";
import { parseProcNet, readHostTcp } from "../../system/proc_stat.ts";

const NETSTAT = `TcpExt: SyncookiesSent ListenOverflows ListenDrops TCPTimeouts TCPSynRetrans
TcpExt: 0 5 7 11 13
IpExt: InNoRoutes
IpExt: 0
`;
const SNMP = `Tcp: RtoAlgorithm ActiveOpens RetransSegs
Tcp: 1 100 17
`;

Deno.test("parseProcNet: header and value lines become Prefix.Name", () => {
  const counters = parseProcNet(SNMP, parseProcNet(NETSTAT));
  assertEquals(
    [
      counters.get("TcpExt.ListenOverflows"),
      counters.get("TcpExt.TCPSynRetrans"),
      counters.get("Tcp.RetransSegs"),
    ],
    [5, 13, 17],
  );
});

Deno.test("hostTcpDelta: what changed, none without both readings or without the accept-queue counters", () => {
  const before = parseProcNet(SNMP, parseProcNet(NETSTAT));
  const after = new Map(before);
  after.set("TcpExt.ListenOverflows", 8);
  after.set("TcpExt.ListenDrops", 10);
  after.set("TcpExt.TCPSynRetrans", 16);
  assertEquals(hostTcpDelta(before, after), {
    listenOverflows: 3,
    listenDrops: 3,
    synRetrans: 3,
    timeouts: 0,
    retransSegs: 0,
  });
  assertEquals(hostTcpDelta(null, after), null);
  assertEquals(hostTcpDelta(new Map(), new Map()), null);
});

Deno.test({
  name: "readHostTcp: this host's counters on Linux",
  ignore: Deno.build.os !== "linux",
  fn() {
    const counters = readHostTcp();
    ok(counters !== null && counters.has("TcpExt.ListenOverflows") && counters.has("Tcp.RetransSegs"));
    const delta = hostTcpDelta(counters, readHostTcp());
    ok(delta !== null && delta.listenOverflows >= 0);
  },
});
