/**
 * The ghz verdict bench's comparison: a report read in each of ghz's forms, and a row "same" only when the
 * exit codes, the count (exact unless time ends the run), each status's and error's count (within 10%) and
 * the report's form agree; a case file's words split as a shell splits them.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import {
  compareRuns,
  corpusRows,
  latencyCheck,
  readReport,
  shellWords,
  type ToolRun,
} from "./ghz_verdicts.ts";
import { findGhz } from "./grpc.ts";
import { nodeGreeterSkip } from "../tests/fixtures/node_greeter.ts";

const run = (over: Partial<ToolRun>): ToolRun => ({
  code: 0,
  count: 100,
  statuses: { OK: 60, InvalidArgument: 40 },
  errors: { "rpc error: code = InvalidArgument desc = bad": 40 },
  form: "json: count",
  note: "",
  ...over,
});

Deno.test("a row is the same only when every part agrees; counts exact unless timed", () => {
  const near = run({ statuses: { OK: 57, InvalidArgument: 43 } });
  assertEquals(compareRuns("a", 0, run({}), near).at(-1), "same");
  assertEquals(compareRuns("a", 0, run({}), run({ count: 99 }))[2], "100/99");
  assertEquals(compareRuns("a", 0, run({}), run({ count: 99 })).at(-1), "differs");
  assertEquals(compareRuns("a", 10, run({}), run({ count: 95 })).at(-1), "same");
  const row = compareRuns(
    "a",
    0,
    run({}),
    run({ code: 2, count: null, statuses: {}, errors: {}, form: "none", note: "--x: refused" }),
  );
  assertEquals(row, [
    "a",
    "0/2",
    "100/-",
    "OK 60 ll absent; InvalidArgument 40 ll absent",
    "rpc error: code = InvalidArgument desc = bad 40 ll absent",
    "ghz json: count; ll none",
    "differs; ll: --x: refused",
  ]);
  assertEquals(
    compareRuns("a", 0, run({}), run({ statuses: { OK: 60, Unknown: 40 } }))[3],
    [
      "InvalidArgument 40 ll absent; Unknown 40 ll only",
    ][0],
  );
});

Deno.test("a timed run's calls cut at its end are compared apart, up to its calls in flight", () => {
  const cut = "rpc error: code = Canceled desc = grpc: the client connection is closing";
  const ghz = run({ count: 103, statuses: { OK: 100, Canceled: 3 }, errors: { [cut]: 3 } });
  const ll = run({ count: 100, statuses: { OK: 100 }, errors: {} });
  assertEquals(compareRuns("z", 5, ghz, ll).at(-1), "same");
  // ghz's ticker hands out calls as it stops (each failing at once): its cut may pass its calls in flight.
  assertEquals(compareRuns("z", 2, ghz, ll).at(-1), "same");
  assertEquals(compareRuns("z", 2, ll, ghz)[4], "same (0); cut at the end ll 3, past its 2 in flight");
  // Not timed: a Canceled call is a status as any other.
  assertEquals(compareRuns("n", 0, ghz, ll).at(-1), "differs");
  // A call grpc-go opens as ghz closes its connection at the end.
  const draining = "rpc error: code = Unavailable desc = the connection is draining";
  const closing = run({ count: 102, statuses: { OK: 100, Unavailable: 2 }, errors: { [draining]: 2 } });
  assertEquals(compareRuns("z", 5, closing, ll).at(-1), "same");
  // A summary's error section that lists the cut calls only.
  const form = "summary: Summary: Status code distribution:";
  const sections = run({ ...closing, form: `${form} Error distribution:` });
  assertEquals(compareRuns("z", 5, sections, run({ ...ll, form })).at(-1), "same");
  assertEquals(compareRuns("n", 0, sections, run({ ...ll, form })).at(-1), "differs");
  // Shares of an unpaced run are of the calls not cut: 256 cut of 1240 and of 2816 are one verdict.
  const share = (count: number) =>
    run({ count, statuses: { OK: count - 256, Canceled: 256 }, errors: { [cut]: 256 } });
  assertEquals(compareRuns("z", 256, share(1240), share(2816), { generatorBound: true }).at(-1), "same");
});

Deno.test("a timed run whose every call failed unanswered compares its shares, not its counts", () => {
  const dial = "rpc error: code = Unavailable desc = connection refused";
  const dead = (n: number) => run({ count: n, statuses: { Unavailable: n }, errors: { [dial]: n } });
  assertEquals(
    compareRuns("dead", 4, dead(30_000), dead(60_000)).slice(2).join("|"),
    [
      "30000/60000 (generator-bound)",
      "same (1)",
      "same (1)",
      "same",
      "same",
    ].join("|"),
  );
  // Each tool fails as fast as its machine lets it: a busy one's count is no verdict.
  assertEquals(compareRuns("dead", 4, dead(23_714), dead(84_877)).at(-1), "same");
  const other = run({
    count: 9,
    statuses: { Unavailable: 9 },
    errors: { "rpc error: code = Unavailable": 9 },
  });
  assertEquals(compareRuns("dead", 4, dead(30_000), other).at(-1), "differs");
  assertEquals(compareRuns("dead", 0, dead(30_000), dead(60_000)).at(-1), "differs");
});

Deno.test("ghz's JSON, summary and CSV are read alike", () => {
  const json = readReport(
    JSON.stringify({
      endReason: "normal",
      count: 3,
      average: 2e6,
      statusCodeDistribution: { OK: 3 },
      errorDistribution: {},
      options: { call: "a.B.C", total: 3 },
      details: [{}, {}, {}],
    }),
  );
  assertEquals(json, {
    count: 3,
    latency: { average: 2e6, fastest: undefined, total: undefined },
    statuses: { OK: 3 },
    errors: {},
    form: "json (normal, details every call): average,count,details,endReason,errorDistribution,options," +
      'statusCodeDistribution; {"call":"a.B.C","total":3}',
  });
  // The calls the latency is over, read from the histogram: OK ones, or every one (--count-errors).
  const buckets = (...counts: number[]) => counts.map((count) => ({ mark: 0.001, count, frequency: 0.5 }));
  const mixed = { count: 4, statusCodeDistribution: { OK: 2, Canceled: 2 }, endReason: "normal" };
  assertEquals(
    readReport(JSON.stringify({ ...mixed, histogram: buckets(1, 1) })).form,
    "json (normal, latency over OK calls, details undefined of 4): count,endReason,histogram," +
      "statusCodeDistribution; undefined",
  );
  match(readReport(JSON.stringify({ ...mixed, histogram: buckets(3, 1) })).form, /latency over every call,/);
  // Every call OK (a timed run whose cut calls one tool left out): one set, read as the OK calls.
  const allOk = { count: 4, statusCodeDistribution: { OK: 4 }, histogram: buckets(2, 2) };
  match(readReport(JSON.stringify(allOk)).form, /latency over OK calls,/);
  const summary = [
    "",
    "Summary:",
    "  Name:\t\tsmoke",
    "  Count:\t3",
    "",
    "Status code distribution:",
    "  [OK]                2 responses   ",
    "  [InvalidArgument]   1 responses   ",
    "",
    "Error distribution:",
    "  [1]   rpc error: code = InvalidArgument desc = bad, really   ",
    "",
  ].join("\n");
  assertEquals(readReport(summary), {
    count: 3,
    statuses: { OK: 2, InvalidArgument: 1 },
    errors: { "rpc error: code = InvalidArgument desc = bad, really": 1 },
    form: "summary: Summary: Name Status code distribution: Error distribution:",
  });
  const csv =
    "\nduration (ms),status,error\n1.50,OK,\n2.00,NotFound,rpc error: code = NotFound desc = no, user\n";
  assertEquals(readReport(csv), {
    count: 2,
    statuses: { OK: 1, NotFound: 1 },
    errors: { "rpc error: code = NotFound desc = no, user": 1 },
    form: "csv",
  });
  assertEquals(readReport("ghz: error: bad").count, null);
});

Deno.test("a case's words split as a shell splits them", () => {
  assertEquals(shellWords(`-d '{"a": "b c"}' -m "{\\"x\\":1}"  a\\ b`), [
    "-d",
    '{"a": "b c"}',
    "-m",
    '{"x":1}',
    "a b",
  ]);
  assertEquals(shellWords(`--name ''`), ["--name", ""]);
});

Deno.test("a timed run whose every call met its client's deadline is generator-bound too", () => {
  const late = "rpc error: code = DeadlineExceeded desc = context deadline exceeded";
  const past = (n: number) => run({ count: n, statuses: { DeadlineExceeded: n }, errors: { [late]: n } });
  assertEquals(compareRuns("t", 4, past(2742), past(1900))[2], "2742/1900 (generator-bound)");
  assertEquals(compareRuns("t", 4, past(2742), past(1900)).at(-1), "same");
});

Deno.test("a timed case marked generator-bound compares its statuses as shares of each tool's count", () => {
  const fast = (count: number) => run({ count, statuses: { OK: count }, errors: {} });
  const row = compareRuns("z", 50, fast(11719), fast(22400), { generatorBound: true });
  assertEquals([row[2], row.at(-1)], ["11719/22400 (generator-bound)", "same"]);
  assertEquals(compareRuns("z", 50, fast(11719), fast(22400)).at(-1), "differs");
  const failing = run({ count: 22400, statuses: { Unavailable: 22400 }, errors: {} });
  assertEquals(compareRuns("z", 50, fast(11719), failing, { generatorBound: true }).at(-1), "differs");
});

Deno.test("a count the machine's load moves is compared to what both tools promise", () => {
  const paced = (count: number) => run({ count, statuses: { OK: count }, errors: {} });
  // 2 calls in flight of 50 ms for 1 s: at most 40 and the 2 in flight; on a busy machine fewer.
  const row = compareRuns("busy", 2, paced(38), paced(26), { countRange: [13, 42] });
  assertEquals([row[2], row.at(-1)], ["38/26 (promised 13..42)", "same"]);
  assertEquals(compareRuns("busy", 2, paced(38), paced(60), { countRange: [13, 42] }).at(-1), "differs");
});

Deno.test("a case loadlab refuses by design reads as refused, never as the same", () => {
  const refusal = run({
    code: 2,
    count: null,
    statuses: {},
    errors: {},
    form: "none",
    note: "h: not HOST:PORT",
  });
  const row = compareRuns("r", 0, run({}), refusal, { refused: "a run of calls that dial nothing" });
  assertEquals(row.at(-1), "refused, as declared (a run of calls that dial nothing): h: not HOST:PORT");
  assertEquals(
    compareRuns("r", 0, run({}), run({}), { refused: "x" }).at(-1),
    "differs; declared refused, ran",
  );
});

Deno.test("latency fields timed from each call's start add up to no more than the calls in flight allow", () => {
  const ms = (average: number, fastest: number) => ({
    average: average * 1e6,
    fastest: fastest * 1e6,
    total: 1e9,
  });
  const ghz = run({ count: 12, statuses: { OK: 12 }, errors: {}, latency: ms(55, 51) });
  const fromStart = compareRuns("a", 0, ghz, ghz);
  latencyCheck(fromStart, { inFlight: 1, latencyFloorMs: 50 }, [ghz, ghz]);
  assertEquals(fromStart.at(-1), "same");
  // From the intended sends, 5 ms apart at a server taking 50 ms each: 12 calls add up to 3.6 s in 1 s.
  const fromIntended = compareRuns("a", 0, ghz, ghz);
  latencyCheck(fromIntended, { inFlight: 1, latencyFloorMs: 50 }, [ghz, { ...ghz, latency: ms(300, 51) }]);
  assertEquals(fromIntended.slice(-2), ["same; latency ll: calls' times 3.6 s > 1 x total", "differs"]);
  const early = compareRuns("a", 0, ghz, ghz);
  latencyCheck(early, { inFlight: 1, latencyFloorMs: 50 }, [{ ...ghz, latency: ms(55, 2) }, ghz]);
  assertEquals(early.at(-1), "differs");
});

/** The corpus's cases of each class fixed where loadlab read ghz's line otherwise, run by real ghz. */
const CLASS_CASES = [
  "t11_json_mixed_fields", // a dealt list's {{.RequestNumber}}: the call's own number
  "t11_list_request_number_metadata",
  "t11_request_number_list_cpus", // and over two worker isolates, each its stripe of the rows
  "t11_connections_past_c_async", // ghz's -c checked against --connections before --async
  "t11_html_server_stream_errors", // -O html without -o: the page on stdout
  "t11_import_paths_comma", // --proto found under -i
  "t10_load_line_max_duration_z", // the step pacer's burst at a max duration mid-step
  "t11_load_line_down_max_duration_z", // and its pause, the end rate lower
  "t11_load_step_max_duration_mid_step_z",
  "t12_wkt_duration_ms", // a -d Duration in Go's words, as ghz's JSON reader parses it
  "t12_counts_hex_octal", // counts as Go's base-0 integers: 0x2 and 017
  "t12_count_underscore", // 1_0 and 0b10
  "t12_rps_plus", // +5, no Go unsigned integer: exit 1 in both
];

Deno.test({
  name: "the corpus's cases of each class fixed reach ghz's verdict, run by ghz and loadlab",
  ignore: (() => {
    const { path, why } = findGhz();
    if (path !== null) return nodeGreeterSkip("ghz verdict cases") !== null;
    if (Deno.env.get("CI") === "true") throw new Error(`ghz verdict cases cannot run: ${why}`);
    console.log(`ghz verdict cases skipped: ${why}`);
    return true;
  })(),
  fn: async () => {
    // Thirteen cases, each two short runs: bounded by the harness's own 60 s a run.
    const rows = await corpusRows(
      findGhz().path!,
      new URL("./ghz_verdicts/", import.meta.url).pathname,
      CLASS_CASES.join(","),
    );
    assertEquals(rows.map((r) => r[0]).sort(), [...CLASS_CASES].sort());
    assertEquals(rows.filter((r) => r.at(-1) !== "same"), []);
  },
});
