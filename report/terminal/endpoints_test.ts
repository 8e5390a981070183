import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { EndpointResult, RunResult } from "../../results/mod.ts";
import { makeSeed000 } from "../../tests/fixtures/make_results.ts";
import { columnsOf } from "../../validation/terminal_text.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { endpointLines, MAX_TERMINAL_ENDPOINTS, TERMINAL_COLUMNS } from "./endpoints.ts";

/** An endpoint of `requests` responses, `errors` connect errors and latencies scaled by `ms`. */
function endpoint(name: string, requests: number, ms = 1, errors = 0): EndpointResult {
  const latencyMs = {
    min: 0.1 * ms,
    mean: ms,
    stdev: ms,
    p50: ms,
    p75: 1.5 * ms,
    p90: 2 * ms,
    p95: 3 * ms,
    p99: 5 * ms,
    p999: 8 * ms,
    p9999: 9 * ms,
    max: 10 * ms,
  } as NonNullable<EndpointResult["latencyMs"]>;
  return {
    name,
    requests,
    errors: errors > 0 ? { connect: errors } : {},
    statusCodes: { "200": requests },
    bytesRead: 0,
    bytesWritten: 0,
    latencyMs,
    histogramEncoded: null,
    intervals: { requests: [], errors: [] },
  };
}

function runOf(endpoints: EndpointResult[], extra: Partial<RunResult> = {}): RunResult {
  return { ...makeSeed000(1, 5).runs[0], durationSec: 10, endpoints, ...extra };
}

/** The cells of the table's rows (under the column header), split on its two-space gaps. */
function rows(lines: string[]): string[][] {
  const header = lines.findIndex((l) => l.trimStart().startsWith("endpoint "));
  return lines.slice(header + 1).filter((l) => l.split(/ {2,}/).length >= 8).map((l) =>
    l.trim().split(/ {2,}/)
  );
}

Deno.test("rows are the busiest first, with failures, percentiles, max and rate, columns in line", () => {
  const lines = endpointLines(runOf([
    endpoint("GET /slow", 200, 40),
    endpoint("POST /login", 1_000, 2, 50),
    endpoint("GET /json", 5_000, 0.5),
  ]));
  assertEquals(rows(lines), [
    ["GET /json", "5,000", "0 (0%)", "500 µs", "1.50 ms", "2.50 ms", "5.00 ms", "500.0"],
    ["POST /login", "1,050", "50 (5%)", "2.00 ms", "6.00 ms", "10.00 ms", "20.00 ms", "105.0"],
    ["GET /slow", "200", "0 (0%)", "40.00 ms", "120.00 ms", "200.00 ms", "400.00 ms", "20.0"],
  ]);
  // Every number ends in the same column as its header; names start in one column.
  const table = lines.slice(lines.findIndex((l) => l.includes("endpoint ")));
  const ends = (line: string) => [...line.matchAll(/\S+(?= {2}|$)/g)].map((m) => m.index! + m[0].length);
  for (const line of table.slice(1)) assertEquals(ends(line).slice(-7), ends(table[0]).slice(-7), line);
  ok(table.every((l) => l.startsWith("  ") && l[2] !== " "));
  ok(lines.every((l) => columnsOf(l) <= TERMINAL_COLUMNS));
});

Deno.test("a run of one endpoint or none has no table", () => {
  assertEquals(endpointLines(runOf([endpoint("GET /", 10)])), []);
  assertEquals(endpointLines(runOf([])), []);
});

Deno.test("the run's verdict is beside the table: ok, or what flags the run", () => {
  const two = [endpoint("a", 300), endpoint("b", 200)];
  ok(endpointLines(runOf(two))[0].endsWith("verdict: ok):"), endpointLines(runOf(two))[0]);
  const bound = endpointLines(runOf(two, { generatorBound: true }));
  ok(/verdict: .*generator-bound/.test(bound.slice(0, 2).join("\n")), bound.join("\n"));
});

Deno.test("a p95 or p99 of too few responses is marked, and the mark is said", () => {
  const lines = endpointLines(runOf([endpoint("many", 100), endpoint("some", 50), endpoint("few", 10)]));
  assertEquals(rows(lines).map((r) => [r[0], r[4], r[5]]), [
    ["many", "3.00 ms", "5.00 ms"],
    ["some", "3.00 ms", "5.00 ms*"],
    ["few", "3.00 ms*", "5.00 ms*"],
  ]);
  ok(lines.some((l) => l.includes("* too few responses for this percentile (a p95 needs 20, a p99 100)")));
  // No response at all: dashes, not a mark on them.
  const none = { ...endpoint("none", 0), latencyMs: null };
  assertEquals(rows(endpointLines(runOf([endpoint("many", 100), none])))[1].slice(3), [
    "-",
    "-",
    "-",
    "-",
    "0.0",
  ]);
});

Deno.test("past the busiest ten, one line counts the rest and says where they are", () => {
  const many = Array.from({ length: 25 }, (_, i) => endpoint(`GET /items/${i}`, 100 + i));
  const lines = endpointLines(runOf(many), { everyOne: "out/x/report.html" });
  assertEquals(rows(lines).length, MAX_TERMINAL_ENDPOINTS);
  assertEquals(rows(lines)[0][0], "GET /items/24");
  assertEquals(lines.at(-1), "  (15 more endpoints: see out/x/report.html)");
});

Deno.test("a long name is cut in its middle to keep the table within 110 columns", () => {
  const long = `GET /api/v1/${"segment/".repeat(30)}orders?page=1`;
  const lines = endpointLines(runOf([endpoint(long, 20_000_000, 12_345), endpoint("GET /", 1)]), {
    indent: "  ",
  });
  ok(lines.every((l) => columnsOf(l) <= TERMINAL_COLUMNS), lines.join("\n"));
  const name = rows(lines)[0][0];
  ok(name.startsWith("GET /api/v1/") && name.endsWith("orders?page=1") && name.includes("…"), name);
  ok(lines.every((l) => l.startsWith("  ")));
});

Deno.test("names are shown on one line with nothing hidden, and wide characters keep the columns", () => {
  const hostile = "GET /\x1b[2J\x1b]0;owned\x07x\r\nVerdict: ok\u202etxt.exe";
  const lines = endpointLines(
    runOf([endpoint(hostile, 300), endpoint("GET /商品/一覧", 200), endpoint("b", 100)]),
  );
  const text = lines.join("\n");
  // deno-lint-ignore no-control-regex -- finding control characters is the point
  ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/.test(text), JSON.stringify(text));
  assertEquals(lines.length, 5, text);
  const shown = rows(lines)[0][0];
  ok(shown.startsWith("GET /\\u001b[2J") && shown.endsWith("ok\\u202etxt.exe"), shown);
  // The wide name takes two columns a character: its row's numbers end where the others' do.
  const ends = lines.slice(1).map((l) => columnsOf(l));
  assertEquals(new Set(ends).size, 1, text);
});

Deno.test("a verdict too long for the heading goes on lines of its own, within the columns", () => {
  const run = runOf([endpoint("a", 300), endpoint("b", 200)], {
    generatorBound: true,
    droppedSends: 400,
    lateSends: 300,
    errors: { connect: 200, timeout: 100, reset: 50 },
    statusCodes: { "200": 200, "500": 150, "503": 150 },
  });
  const lines = endpointLines(run, { indent: "  " });
  const text = lines.join("\n");
  ok(lines[1].startsWith("    run verdict: generator-bound"), text);
  ok(lines.every((l) => columnsOf(l) <= TERMINAL_COLUMNS), text);
  const header = lines.findIndex((l) => l.trimStart().startsWith("endpoint "));
  assertEquals(
    lines.slice(1, header).join(" ").replace(/\s+/g, " ").trim(),
    `run verdict: ${runVerdict(run).label}`,
  );
});
