import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { exportLine, exportNote, type ExportSummary } from "./summary.ts";

const output = (extra: Partial<ExportSummary>): ExportSummary => ({
  kind: "prometheus-remote-write",
  url: "http://127.0.0.1:9090/api/v1/write",
  intervalsSent: 120,
  intervalsDropped: 0,
  intervalsFailed: 0,
  posts: 30,
  retries: 0,
  ...extra,
});

Deno.test("exportNote: each output's counts and receiver, qualified when points were not delivered", () => {
  assertEquals(exportNote(undefined), null);
  assertEquals(exportNote([]), null);
  assertEquals(
    exportNote([output({})]),
    "prometheus-remote-write 120 intervals sent, 0 dropped to http://127.0.0.1:9090/api/v1/write",
  );
  assertEquals(
    exportNote([
      output({ intervalsDropped: 5 }),
      output({ kind: "otlp", url: "http://c:4318/v1/metrics", intervalsSent: 100, intervalsFailed: 20 }),
    ]),
    "prometheus-remote-write 120 intervals sent, 5 dropped to http://127.0.0.1:9090/api/v1/write" +
      " — incomplete at the receiver: 5 of 125 not delivered; " +
      "otlp 100 intervals sent, 0 dropped, 20 failed to http://c:4318/v1/metrics" +
      " — incomplete at the receiver: 20 of 120 not delivered",
  );
  // The terminal's line is the same clause.
  assertEquals(
    exportLine(output({ intervalsFailed: 2, lastError: "HTTP 503" })),
    "metrics out: prometheus-remote-write 120 intervals sent, 0 dropped, 2 failed (last error: HTTP 503)",
  );
});
