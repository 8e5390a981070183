import assert from "node:assert/strict";
import { listeningInodes, listeningPid } from "./port_listener.ts";

Deno.test("listeningInodes keeps the port's listening sockets only", () => {
  const table = [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1",
    "   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 222 1",
    "   2: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 333 1",
  ].join("\n");
  assert.deepEqual(listeningInodes(table, 0x1f90), ["111"]);
});

Deno.test("listeningPid finds this process behind its own listener, and not once it is closed", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    assert.equal(listeningPid(server.addr.port), Deno.pid);
  } finally {
    await server.shutdown();
  }
  // Another process (a test beside this one) may listen on the port by now: only this one must be gone.
  assert.notEqual(listeningPid(server.addr.port), Deno.pid);
});
