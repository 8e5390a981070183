/**
 * The warm-up sink must answer what the engine sends, or the burst would only count errors and warm
 * nothing: over h2c the engine (both transports, streams in flight) gets a 200 for every request, and
 * over HTTP/1.1 likewise, pipelined. Bounded runs (-n), loopback only.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { startSink } from "./warmup_sink.ts";
import { attackJson } from "../../tests/tls_fixtures.ts";

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
