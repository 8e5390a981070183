/**
 * The warm-up sink must answer what the engine sends, or the burst would only count errors and warm
 * nothing: over h2c the engine (both transports, streams in flight) gets a 200 for every request, and
 * over HTTP/1.1 likewise, pipelined. Bounded runs (-n), loopback only.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { startSink } from "./warmup_sink.ts";
import { attackJson } from "../../tests/tls_fixtures.ts";
import { runtimeResources } from "../../system/descriptors.ts";

for (const transport of ["deno", "epoll"]) {
  Deno.test(`warm-up sink [${transport}]: h2c with 8 streams a connection, and HTTP/1.1 pipelined, all answered`, async () => {
    for (const h2 of [true, false]) {
      const sink = startSink(h2);
      try {
        const args = h2 ? [sink.url, "--protocol", "h2c", "--streams", "8"] : [sink.url, "-p", "4"];
        const r = await attackJson(args, transport, 400, 3);
        assertEquals(r.code, 0, r.stderr);
        assertEquals([r.json.protocol, r.json.statusCodes, r.json.errors], [h2 ? "h2c" : "http1", {
          "200": 400,
        }, {}]);
      } finally {
        sink.close();
      }
    }
  });
}

// A burst closes its connections before the sink: each answer then ends on its own, and the sink must close
// its side there (the resource check fails on a socket left open), or a kept isolate would keep them all.
Deno.test("warm-up sink: a connection its client closed first is closed by the sink too", async () => {
  const sink = startSink(false);
  try {
    const { port } = new URL(sink.url);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
    await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: sink\r\n\r\n"));
    ok(((await conn.read(new Uint8Array(1024))) ?? 0) > 0, "answered");
    conn.close();
    // The sink's read sees the end of stream within a few turns; a busy machine may only delay the check.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    sink.close();
  }
  // The runtime's resource table (what the worker checks before it is kept): no socket of the sink's left.
  assertEquals(runtimeResources().filter(([, name]) => name === "tcpStream"), []);
});
