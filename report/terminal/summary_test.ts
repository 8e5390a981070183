import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { IntervalResult, RunResult } from "../../results/mod.ts";
import { RunAggregator } from "../../runner/stats/aggregate.ts";
import { ohaSummary, renderSummary } from "./summary.ts";
import { renderLiveLine } from "./live_line.ts";
import { formatBytes, formatDurationMs } from "../../results/text_format.ts";
import { perSecond, seriesStats } from "./tables.ts";
import { makeCpuSleepQuick } from "../../tests/fixtures/make_results.ts";

function interval(startMs: number, requests: number, bytesRead: number): IntervalResult {
  return {
    startMs,
    durationMs: 250,
    requests,
    errors: 0,
    failedStatus: 0,
    p50: 1,
    p75: 1,
    p90: 1,
    p99: 2,
    mean: 1,
    max: 3,
    bytesRead,
    bytesWritten: 0,
    lateSends: 0,
    inFlight: 0,
    connections: 10,
    statusCodes: {},
  };
}

/** A 2-second run: 1000 req/s in the first second, 600 in the second. */
function sampleRun(overrides: Partial<RunResult> = {}): RunResult {
  const latencyMs = {
    min: 0.412,
    mean: 3.25,
    stdev: 1.5,
    p2_5: 0.5,
    p10: 1.11,
    p25: 2.22,
    p50: 3.33,
    p75: 4.44,
    p90: 5.55,
    p95: 6.66,
    p97_5: 7.5,
    p99: 8.88,
    p999: 12.5,
    p9999: 40.4,
    max: 123.45,
  };
  return {
    name: "attack",
    url: "http://127.0.0.1:8080/json",
    model: "connections",
    config: {},
    startedAt: "2025-01-01T00:00:00.000Z",
    durationSec: 2,
    warmupSec: 0,
    requests: 1600,
    rps: 800,
    targetRps: null,
    successRate: 0.99,
    latencyMs,
    uncorrectedLatencyMs: null,
    percentiles: [],
    uncorrectedPercentiles: null,
    histogram: [
      { fromMs: 0.412, toMs: 50, count: 1500 },
      { fromMs: 50, toMs: 100, count: 99 },
      { fromMs: 100, toMs: 123.45, count: 1 },
    ],
    histogramEncoded: "",
    statusCodes: { "200": 1584, "503": 16 },
    errors: { timeout: 16 },
    errorMessages: { timeout: { "no response in 1000 ms": 12, "headers timed out": 4 } },
    bytesRead: 1600 * 512,
    bytesWritten: 1600 * 64,
    lateSends: 0,
    droppedSends: 0,
    generatorBound: false,
    connects: 10,
    reconnects: 0,
    connectTimeMs: { min: 0.1, mean: 0.2, max: 0.5, p99: 0.5 },
    intervals: [0, 250, 500, 750].map((t) => interval(t, 250, 250 * 512))
      .concat([1000, 1250, 1500, 1750].map((t) => interval(t, 150, 150 * 512))),
    workers: 1,
    stabilizedAtMs: 0,
    ...overrides,
  };
}

Deno.test("formatters pick short units and never print NaN", () => {
  assertEquals(
    [0, 0.85, 12.345, 1500, 125_000].map(formatDurationMs),
    ["0 ms", "850 µs", "12.35 ms", "1.50 s", "2m 05s"],
  );
  assertEquals([0, 512, 1536, 5 * 1024 ** 2].map(formatBytes), ["0 B", "512 B", "1.50 KiB", "5.00 MiB"]);
  assertEquals([NaN, Infinity].map(formatDurationMs).concat([NaN].map(formatBytes)), ["-", "-", "-"]);
});

Deno.test("renderSummary shows the key numbers of a run", () => {
  const text = renderSummary(sampleRun());
  for (
    const expected of [
      "Success rate:  99.00%",
      "Slowest:       123.45 ms",
      "Fastest:       412 µs",
      "Average:       3.25 ms",
      "Requests/sec:  800.00",
      "Total data:    800.00 KiB",
      "Size/request:  512 B",
      "Size/sec:      400.00 KiB",
      "99% in 8.88 ms",
      "99.99% in 40.40 ms",
      "[200] 1,584 responses",
      "[503] 16 responses",
      "[16] timeout",
      "12 × no response in 1000 ms",
    ]
  ) assert(text.includes(expected), `missing ${JSON.stringify(expected)} in\n${text}`);
  // The biggest bucket gets the full 30-column bar, a tiny one none.
  assert(text.includes(`[1,500] |${"■".repeat(30)}\n`), text);
  assert(/\[1\]\s+\|\n/.test(text), text);
  // Box tables: per-second stats over the two full seconds (1000 and 600 req/s), 1% first as autocannon's.
  const reqRow = text.split("\n").find((line) => line.startsWith("│ Req/Sec"));
  assertEquals(reqRow?.split("│").map((cell) => cell.trim()).filter(Boolean), [
    "Req/Sec",
    "600.00",
    "600.00",
    "600.00",
    "1,000.00",
    "800.00",
    "200.00",
    "600.00",
  ]);
  assert(text.includes("│ Latency "));
  assert(!text.includes("WARNING") && !text.includes("\x1b["));
});

Deno.test("renderSummary shows corrected and uncorrected latency side by side", () => {
  const run = sampleRun({ uncorrectedLatencyMs: { ...sampleRun().latencyMs, p99: 2.5 } });
  const text = renderSummary(run);
  assert(text.includes("(corrected | uncorrected)"), text);
  assert(/99% in 8\.88 ms\s+\| 2\.50 ms/.test(text), text);
  assert(text.includes("│ Latency (corrected)") && text.includes("│ Latency (uncorrected)"), text);
});

Deno.test("renderSummary warns when the generator limited the run", () => {
  const text = renderSummary(
    sampleRun({ lateSends: 40, droppedSends: 2, generatorBound: true, targetRps: 1000 }),
  );
  assert(text.includes("Late sends: 40, waited for a connection: 0, dropped sends: 2"), text);
  assert(text.includes("WARNING") && text.includes("load generator"), text);
  const server = renderSummary(sampleRun({ serverBoundSends: 50, serverBound: true, droppedSends: 2 }));
  assert(server.includes("waited for a connection: 50") && server.includes("Server-bound"), server);
  assert(!server.includes("WARNING"), server);
  assert(text.includes("800.00 achieved of 1,000.00 requested"), text);
  assert(text.startsWith("Verdict: generator-bound"), text);
  assert(renderSummary(sampleRun(), { color: true }).includes("\x1b[1mSummary:\x1b[0m"));
});

Deno.test("an empty run renders without NaN or Infinity", () => {
  const stats = new RunAggregator({ intervalMs: 250, uncorrected: true }).finish(0);
  const empty: RunResult = { ...sampleRun(), ...stats, durationSec: 0, connectTimeMs: null };
  const text = renderSummary(empty);
  assert(!/NaN|Infinity|undefined/.test(text), text);
  // Nothing sent: no success rate to print, and the verdict says nothing was measured.
  assert(text.includes("Success rate:  -\n") && text.includes("(no responses)"), text);
  assert(text.startsWith("Verdict: nothing measured: no request was sent"), text);
  assert(!renderSummary(empty, { color: true }).includes("\x1b[31m"), "an empty run is not an error");
});

Deno.test("per-second stats drop a trailing partial second", () => {
  const intervals = [interval(0, 100, 0), interval(250, 100, 0), interval(500, 100, 0), interval(750, 100, 0)]
    .concat([{ ...interval(1000, 10, 0), durationMs: 100 }]);
  assertEquals(perSecond(intervals, (i) => i.requests), [400]);
  assertEquals(perSecond([{ ...interval(0, 10, 0), durationMs: 500 }], (i) => i.requests), [20]);
  assertEquals(seriesStats([]).mean, 0);
  assertEquals(seriesStats([1, 2, 3, 4]), {
    p1: 1,
    p2_5: 1,
    p50: 2,
    p97_5: 4,
    mean: 2.5,
    stdev: Math.sqrt(1.25),
    min: 1,
    max: 4,
  });
});

Deno.test("renderLiveLine is one line with the live numbers", () => {
  const line = renderLiveLine({
    elapsedSec: 12.34,
    totalSec: 30,
    requests: 12345,
    rps: 4567.8,
    p99Ms: 12.3,
    errors: 2,
  });
  assert(!line.includes("\n"));
  for (const part of ["12.3s / 30s", "41%", "12,345 req", "4,568 req/s", "p99", "12.30 ms", "2 errors"]) {
    assert(line.includes(part), `missing ${part} in ${line}`);
  }
  const open = renderLiveLine({ elapsedSec: 1, totalSec: null, requests: 0, rps: 0, p99Ms: 0, errors: 0 });
  assert(!/NaN|%| \/ /.test(open), open);
  assert(/p99 +- /.test(open) && !open.includes("0 ms"), `no response yet, no p99: ${open}`);
  assertEquals(
    open.length,
    renderLiveLine({ ...{ elapsedSec: 2, totalSec: null, requests: 9, rps: 9, p99Ms: 0, errors: 0 } }).length,
  );
});

Deno.test("summary of a shard says it is one segment and how to get the whole", () => {
  const segment = { index: 1, count: 4, startAt: "2026-11-21T17:00:00.000Z", lateMs: 340 };
  const text = renderSummary(sampleRun({ segment }));
  assert(text.includes("Segment 1/4 of a split load, started 340 ms after 2026-11-21T17:00:00.000Z"), text);
  assert(text.includes("loadlab merge"));
  assertEquals(renderSummary(sampleRun()).includes("Segment"), false);
});

Deno.test("renderSummary states the open-model verdict in plain words with the start-up facts", () => {
  const run = sampleRun({
    targetRps: 1000,
    serverBoundSends: 1503,
    serverBound: true,
    lateSends: 12,
    preConnected: 8,
    preConnectEstimateMs: 0.2,
    maxConnectsInFlight: 16,
    generatorWarmupMs: 201,
    transport: "epoll",
  });
  const text = renderSummary(run);
  assert(
    text.includes("Generator: server-bound: 93% of sends waited for a connection the server held"),
    text,
  );
  assert(text.includes("Late sends: 12, waited for a connection: 1,503, dropped sends: 0"), text);
  assert(
    text.includes(
      "Start-up: 8 pre-connected, at most 16 connects in flight, generator warm-up 201.00 ms, transport epoll",
    ),
    text,
  );
  const kept = renderSummary(sampleRun({ targetRps: 1000, lateSends: 3, serverBoundSends: 0 }));
  assert(kept.includes("Generator: kept the schedule: 0.2% of sends late, 0% waited for a connection"), kept);
  // A closed-model run says why nothing can be late, and lists no send counts.
  const closed = renderSummary(sampleRun({ generatorWarmupMs: 0, transport: "deno" }));
  assert(closed.includes("Generator: closed model"), closed);
  assert(!closed.includes("Late sends") && closed.includes("Start-up: no warm-up, transport deno"), closed);
});

Deno.test("a dropped-send run shows requested, sent and dropped, and success only of what was sent", () => {
  const dropped = makeCpuSleepQuick().runs[2];
  const text = renderSummary(dropped);
  assert(text.startsWith("Verdict: dropped 99.7%"), text);
  assert(text.includes("100.00% of sent; 99.7% of intended sends dropped"), text);
  assert(text.includes(`Sent:          ${dropped.requests}, dropped 29,839 (99.7% of intended sends)`), text);
  assert(text.includes("achieved of 20,000.00 requested"), text);
  const above = renderSummary({ ...dropped, rps: 21_000, droppedSends: 0 });
  assert(above.includes("21,000.00 achieved of 20,000.00 requested (above requested beyond noise)"), above);
});

Deno.test("an https run's start-up line carries the handshake time and says when certificates were not verified", () => {
  const tls = { client: "node:tls", alpn: "http/1.1", version: "TLSv1.3", cipher: null, insecure: true };
  const text = renderSummary(
    sampleRun({ generatorWarmupMs: 0, transport: "deno", tlsMs: { min: 1, mean: 2, max: 9, p99: 8 }, tls }),
  );
  assert(
    /TLS handshake mean 2\.00 ms p99 8\.00 ms \(node:tls client, certificates NOT verified/.test(text),
    text,
  );
});

Deno.test("renderSummary lists each check with its pass rate, sessions a capture ended, and rows that ran out", () => {
  const [base] = makeCpuSleepQuick().runs;
  const run: RunResult = {
    ...base,
    dataRanOutWorkers: 2,
    flows: [{
      name: "login",
      sessions: 10,
      completed: 8,
      failed: 2,
      captureFailed: 2,
      sessionMs: null,
      steps: [{
        label: "POST /login",
        requests: 10,
        errors: 0,
        latencyMs: null,
        checks: [{ name: "status 200", passed: 8, failed: 2 }, {
          name: "$.ok == true",
          passed: 8,
          failed: 0,
        }],
      }],
    }],
  };
  const text = renderSummary(run);
  assert(text.includes("Checks:"), text);
  assert(text.includes("  [2] login: sessions ended by a capture that found nothing"), text);
  assert(text.includes("  login / POST /login: status 200: 80.0% of 10 passed"), text);
  assert(text.includes("  login / POST /login: $.ok == true: 100.0% of 8 passed"), text);
  assert(text.includes("Data: rows ran out in 2 worker(s)"), text);
  assert(!renderSummary(base).includes("Checks:"));
});

Deno.test("an https run's start-up line counts resumed handshakes, or says resumption was not available", () => {
  const tlsMs = { min: 1, mean: 2, max: 9, p99: 8 };
  const base = { alpn: "http/1.1", version: "TLSv1.3", cipher: null, insecure: false };
  const resumed = renderSummary(sampleRun({
    transport: "epoll",
    tlsMs,
    tls: { ...base, client: "openssl", resume: true, handshakes: 40, resumed: 38 },
  }));
  assert(resumed.includes("38 of 40 handshakes resumed"), resumed);
  const note = "session resumption (--tls-resume on) is not available on the deno transport";
  const unavailable = renderSummary(sampleRun({
    transport: "deno",
    tlsMs,
    tls: { ...base, client: "deno", resume: false, handshakes: null, resumed: null, resumeNote: note },
  }));
  assert(unavailable.includes(note) && !unavailable.includes("handshakes resumed"), unavailable);
});

Deno.test("oha's part: connect times as oha's DNS+dialup line before the status codes, none without them", () => {
  const text = ohaSummary(sampleRun());
  assert(
    text.includes("Details (average, fastest, slowest):\n  DNS+dialup:  200 µs, 100 µs, 500 µs\n"),
    text,
  );
  assert(text.indexOf("DNS+dialup") < text.indexOf("Status code distribution"), text);
  assert(renderSummary(sampleRun()).includes("DNS+dialup:  200 µs"));
  assert(!ohaSummary(sampleRun({ connectTimeMs: null })).includes("DNS+dialup"));
  assert(!text.includes("┌"), "the autocannon tables are the page's own");
});
