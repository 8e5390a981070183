/**
 * A connect the run's end aborted too late (its socket already made, as a busy machine's event loop can
 * deliver it) is closed by the dial, not handed to a connection that would never close it.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAttackConfig } from "../../config.ts";
import { connectionShared } from "../load_connection.ts";
import { RequestMix } from "../request.ts";
import { connectGateOf, recorderOf } from "../../load/run_load.ts";
import { runtimeResources } from "../../../system/descriptors.ts";
import { Dialer } from "./dial.ts";
import { tcpTransport, type Transport } from "./transport.ts";

Deno.test("dial: a socket that connects once the run is stopping is closed, and none is handed on", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const config = parseAttackConfig({
    url: `http://127.0.0.1:${listener.addr.port}/`,
    model: "connections",
    connections: 1,
  });
  // Deno's connect, its socket handed over only after the abort (the order a late connect comes in).
  const lateTransport: Transport = async (hostname, port, signal) => {
    const sock = await tcpTransport(hostname, port, new AbortController().signal);
    if (!signal.aborted) {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    }
    return sock;
  };
  const shared = connectionShared({
    hostname: "127.0.0.1",
    port: listener.addr.port,
    transport: lateTransport,
    recorder: recorderOf(config),
    mix: new RequestMix(new URL(config.url), config.requestMix, 0),
    timeoutMs: 5_000,
    maxHeaderBytes: config.maxHeaderBytes,
    connectGate: connectGateOf(config),
    log: null,
    stopping: false,
  });
  const before = new Set(runtimeResources().map(([rid]) => rid));
  try {
    const dialer = new Dialer(shared, null);
    const dialing = dialer.dial();
    const accepted = await listener.accept();
    accepted.close();
    shared.stopping = true; // the run's end: it aborts the connects under way
    dialer.abort();
    assertEquals(await dialing, null);
    assertEquals(runtimeResources().filter(([rid]) => !before.has(rid)).map(([, kind]) => kind), []);
    assertEquals(shared.recorder.connections, 0);
  } finally {
    listener.close();
  }
});
