import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { ghzOutput, ghzReport, influxTags, loggedCalls } from "./report.ts";
import { createHistogram, encodeHistogram } from "../../histogram.ts";
import { summarizeMs } from "../../histogram.ts";
import type { RunResult } from "../../mod.ts";

/** A run of 8 answered calls (6 OK at 1-6 ms, 2 UNAVAILABLE at 10 ms) and 2 timeouts, over 0.5 s. */
const LOG = ["code;startUs;endUs;connection", "1014;0;10000;0", "1014;0;10000;1"]
  .concat([1, 2, 3, 4, 5, 6].map((ms) => `200;${ms * 1000};${ms * 2000};${ms % 2}`)).join("\n") + "\n";

function run(): RunResult {
  const h = createHistogram();
  for (const us of [1000, 2000, 3000, 4000, 5000, 6000, 10_000, 10_000]) h.recordValue(us);
  return {
    requests: 8,
    durationSec: 0.5,
    startedAt: "2026-01-02T03:04:05.000Z",
    statusCodes: { "200": 6, "grpc UNAVAILABLE": 2 },
    errors: { timeout: 2 },
    errorMessages: { "grpc UNAVAILABLE": { "down": 2 }, timeout: { "no answer within 1s": 2 } },
    latencyMs: summarizeMs(h),
    histogramEncoded: encodeHistogram(h),
    config: {
      model: "count",
      url: "http://127.0.0.1:50051/",
      requestMix: [{ name: "helloworld.Greeter/SayHello" }],
      requests: 10,
      connections: 4,
      streams: 13,
      concurrency: 50,
      timeoutMs: 20_000,
      workers: 1,
    },
  } as unknown as RunResult;
}

Deno.test("ghz's JSON: every call counted, statuses and errors keyed as grpc-go names them, durations in ns", () => {
  const r = ghzReport(run(), new Date("2026-01-02T03:04:05.678Z"), {}, loggedCalls(LOG));
  assertEquals([r.date, r.endReason, r.count, r.total, r.rps], [
    "2026-01-02T03:04:05Z",
    "normal",
    10,
    5e8,
    20,
  ]);
  assertEquals(r.statusCodeDistribution, { OK: 6, Unavailable: 2, DeadlineExceeded: 2 });
  assertEquals(r.errorDistribution, {
    "rpc error: code = Unavailable desc = down": 2,
    "rpc error: code = DeadlineExceeded desc = context deadline exceeded": 2,
  });
  // ghz's average is over every call, its fastest, slowest, percentiles and histogram over the OK ones.
  assertEquals([r.average, r.fastest, r.slowest], [5_125_000, 1_000_000, 6_000_000]);
  assertEquals(r.latencyDistribution?.map((d) => [d.percentage, d.latency / 1e6]), [
    [10, 1],
    [25, 2],
    [50, 3],
    [75, 5],
    [90, 6],
    [95, 6],
    [99, 6],
  ]);
  assertEquals(r.histogram?.length, 11);
  assertEquals(r.histogram?.map((b) => b.count), [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
  assertEquals([r.histogram?.[0].mark, r.histogram?.[0].frequency], [0.001, 1 / 6]);
  // ghz's details: each call in the order it ended, at its end; a call with no answer logged at the run's.
  assertEquals([r.details?.length, r.details?.[0], r.details?.[9].timestamp, r.details?.[9].status], [
    10,
    { timestamp: "2026-01-02T03:04:05.002Z", latency: 1_000_000, error: "", status: "OK" },
    "2026-01-02T03:04:05.5Z",
    "DeadlineExceeded",
  ]);
  // --count-errors: over every call answered, whatever its status (a call with no answer has no time).
  const all = ghzReport(run(), new Date(), { options: { "count-errors": true } }, loggedCalls(LOG));
  assertEquals([all.average, all.fastest, all.slowest, all.options["count-errors"]], [
    5_125_000,
    1_000_000,
    10_000_000,
    true,
  ]);
  assertEquals([all.latencyDistribution?.[6].latency, all.histogram?.reduce((a, b) => a + b.count, 0)], [
    10_000_000,
    8,
  ]);
  // No OK call: ghz's average stands, its fields over OK calls are zero or null.
  const failed = ghzReport(run(), new Date(), {}, loggedCalls(LOG.replaceAll("\n200;", "\n1014;")));
  assertEquals([failed.average, failed.slowest, failed.latencyDistribution, failed.histogram], [
    5_125_000,
    0,
    null,
    null,
  ]);
});

Deno.test("ghz's summary text: its headings and lines", () => {
  const text = ghzOutput(run(), "summary", new Date(), LOG);
  match(text, /\nSummary:\n {2}Count:\t10\n {2}Total:\t500\.00 ms\n/);
  match(text, /Requests\/sec:\t20\.00\n/);
  match(text, /Status code distribution:\n {2}\[OK\] +6 responses/);
  match(text, /Error distribution:\n {2}\[2\] +rpc error: code = Unavailable desc = down/);
});

Deno.test("ghz's summary histogram and distributions: its tab after each count, its columns padded", () => {
  const h = createHistogram();
  for (let k = 0; k < 12; k++) h.recordValue(1000);
  h.recordValue(10_000);
  const many = {
    ...run(),
    requests: 13,
    statusCodes: { "200": 13 },
    errors: {},
    latencyMs: summarizeMs(h),
    histogramEncoded: encodeHistogram(h),
  } as unknown as RunResult;
  const log = ["code;startUs;endUs;connection", ...Array(12).fill("200;0;1000;0"), "200;0;10000;0"].join(
    "\n",
  );
  match(ghzOutput(many, "summary", new Date(), log), /\n {2}1\.000 \[12\]\t\|∎{40}\n {2}1\.900 \[0\]\t\|\n/);
  // Go's tabwriter: each cell padded to its column's widest and 3 spaces.
  const mixed = {
    ...many,
    statusCodes: { "200": 13, "grpc INVALID_ARGUMENT": 120 },
    errorMessages: {},
  } as unknown as RunResult;
  match(
    ghzOutput(mixed, "summary"),
    /\n {2}\[OK\] {16}13 responses {4}\n {2}\[InvalidArgument\] {3}120 responses {3}\n/,
  );
});

Deno.test("ghz's CSV: its header, a row per call from the request log, then one per unanswered call", () => {
  const log = [
    "code;startUs;endUs;connection",
    "200;1000;2234;0",
    "200;5000;11000;1",
    "1014;7000;17000;0",
    "1014;8000;18125;1",
    "",
  ].join("\n");
  const many = run();
  many.errorMessages.timeout = { "no answer, within 1s": 1, "no answer\r\nVerdict: ok": 1 };
  // ghz's layout: a blank line, `duration (ms),status,error`, then `ms with 2 decimals,status,error`.
  assertEquals(ghzOutput(many, "csv", new Date(), log).split("\n"), [
    "",
    "duration (ms),status,error",
    "1.23,OK,",
    "6.00,OK,",
    "10.00,Unavailable,rpc error: code = Unavailable desc = down",
    "10.13,Unavailable,rpc error: code = Unavailable desc = down",
    // grpc-go's words for a deadline, whatever loadlab's message said.
    ",DeadlineExceeded,rpc error: code = DeadlineExceeded desc = context deadline exceeded",
    ",DeadlineExceeded,rpc error: code = DeadlineExceeded desc = context deadline exceeded",
    "",
  ]);
  many.errorMessages["grpc UNAVAILABLE"] = { 'down, "for now"\n': 2 };
  match(
    ghzOutput(many, "csv", new Date(), log),
    // As ghz writes it: bare, on one line.
    /\n10\.00,Unavailable,rpc error: code = Unavailable desc = down, "for now"\\n\n/,
  );
  // A status's messages, each to as many calls as it came (which call had which is not logged).
  many.errorMessages["grpc UNAVAILABLE"] = { "n0,b": 1, "n1,b": 1 };
  assertEquals(ghzOutput(many, "csv", new Date(), log).split("\n").slice(4, 6), [
    "10.00,Unavailable,rpc error: code = Unavailable desc = n0,b",
    "10.13,Unavailable,rpc error: code = Unavailable desc = n1,b",
  ]);
});

const DIAL_ERROR = 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while ' +
  'dialing dial tcp 127.0.0.1:9: connect: connection refused"';

Deno.test("calls that got no answer read as grpc-go's client words them: deadline, a cut, no connection", () => {
  const base = run();
  const r = ghzReport({
    ...base,
    errors: { timeout: 2, connect: 1, "closed-early": 4, goaway: 1 },
    unfinished: 3,
    errorMessages: {
      ...base.errorMessages,
      connect: { "refused: Connection refused (os error 111) connecting to 127.0.0.1:9": 1 },
      "closed-early": { "the server closed the connection before its SETTINGS": 4 },
      // Refused unprocessed by a server's GOAWAY past the resends: grpc-go's draining connection.
      goaway: { "GOAWAY NO_ERROR: refused 4 times, not sent again": 1 },
    },
  } as RunResult, new Date());
  assertEquals(r.statusCodeDistribution, { OK: 6, Unavailable: 8, DeadlineExceeded: 2, Canceled: 3 });
  assertEquals(r.errorDistribution, {
    "rpc error: code = Unavailable desc = down": 2,
    "rpc error: code = DeadlineExceeded desc = context deadline exceeded": 2,
    [DIAL_ERROR]: 1,
    "rpc error: code = Canceled desc = grpc: the client connection is closing": 3,
    "rpc error: code = Unavailable desc = connection closed": 4,
    "rpc error: code = Unavailable desc = the connection is draining": 1,
  });
});

Deno.test("a host given without its port: each call fails at its address, in grpc-go's words", () => {
  const base = run();
  const unreachable = { "Network is unreachable (os error 101) connecting to 255.255.255.255:1": 4 };
  const failed = {
    ...base,
    errors: { connect: 4 },
    errorMessages: { ...base.errorMessages, connect: unreachable },
  } as RunResult;
  const words = (host: string) =>
    Object.keys(
      JSON.parse(ghzOutput(failed, "json", new Date(), "", { options: { host } })).errorDistribution,
    );
  assertEquals(words("[::1]"), [
    'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing dial tcp: ' +
    'address [::1]: missing port in address"',
    "rpc error: code = Unavailable desc = down",
  ]);
  assertEquals(
    words("127.0.0.1:9")[0],
    "rpc error: code = Unavailable desc = Network is unreachable " +
      "(os error 101) connecting to 255.255.255.255:1",
  );
});

Deno.test("a count whose connections could not be made: each call it did not send failed as they did", () => {
  const r = ghzReport({
    ...run(),
    requests: 0,
    statusCodes: {},
    errors: { tls: 4 },
    errorMessages: {
      tls: {
        "tls unknown-ca: the server's certificate is not signed by a trusted CA": 1,
        "tls: tls handshake failed: error:0A00010B:SSL routines::wrong version number": 1,
        "tls hostname: the server's certificate names localhost, 127.0.0.1, ::1, not a.test (use --sni)": 1,
        "tls hostname: the server's certificate names localhost, 127.0.0.1, ::1, not 127.0.0.2 (use --sni)":
          1,
      },
    },
  } as unknown as RunResult, new Date());
  assertEquals([r.count, r.statusCodeDistribution], [10, { Unavailable: 10 }]);
  const handshake =
    'rpc error: code = Unavailable desc = connection error: desc = "transport: authentication ' +
    "handshake failed: tls: ";
  assertEquals(r.errorDistribution, {
    [`${handshake}failed to verify certificate: x509: certificate signed by unknown authority"`]: 7,
    [`${handshake}first record does not look like a TLS handshake"`]: 1,
    [`${handshake}failed to verify certificate: x509: certificate is valid for localhost, not a.test"`]: 1,
    [`${handshake}failed to verify certificate: x509: certificate is valid for 127.0.0.1, ::1, not 127.0.0.2"`]:
      1,
  });
});

Deno.test("--skipFirst: the first calls to end leave the count, the statuses, the latency and the CSV", () => {
  const log = ["code;startUs;endUs;connection", "1014;0;9000;0", "200;0;1000;0", "200;0;5000;1", ""].join(
    "\n",
  );
  const r = JSON.parse(ghzOutput(run(), "json", new Date(), log, { options: { skipFirst: 2 } }));
  // The first two to end: an OK (1 ms) and an OK (5 ms); the UNAVAILABLE at 9 ms stays.
  assertEquals([r.count, r.statusCodeDistribution], [8, { OK: 4, Unavailable: 2, DeadlineExceeded: 2 }]);
  const one = JSON.parse(ghzOutput(run(), "json", new Date(), log, { options: { skipFirst: 1 } }));
  assertEquals([one.fastest, one.slowest, one.average], [5e6, 5e6, 7e6]);
  const csv = ghzOutput(run(), "csv", new Date(), log, { options: { skipFirst: 2 } }).split("\n");
  assertEquals(csv.slice(2, 3), ["9.00,Unavailable,rpc error: code = Unavailable desc = down"]);
  // A skipped call that failed leaves its error's count too.
  const failed = JSON.parse(ghzOutput(run(), "json", new Date(), log, { options: { skipFirst: 3 } }));
  assertEquals([failed.count, failed.statusCodeDistribution.Unavailable], [7, 1]);
  assertEquals(failed.errorDistribution["rpc error: code = Unavailable desc = down"], 1);
  // Each its own message: the skipped call's is the first its status got, as ghz drops it.
  const own = { ...run(), errorMessages: { "grpc UNAVAILABLE": { n0: 1, n1: 1 } } } as RunResult;
  const unavailable = (messages: Record<string, number>) =>
    Object.keys(messages).filter((m) => m.includes("Unavailable"));
  const skipped =
    JSON.parse(ghzOutput(own, "json", new Date(), log, { options: { skipFirst: 3 } })).errorDistribution;
  assertEquals(unavailable(skipped), ["rpc error: code = Unavailable desc = n1"]);
});

Deno.test("a call with no answer logged as code 0: timed in the CSV, the average, --count-errors; skipped", () => {
  // The run's 2 timeouts, timed to their errors at 100 and 120 ms.
  const log = `${LOG}0;0;100000;0\n0;20000;140000;1\n`;
  assertEquals(ghzOutput(run(), "csv", new Date(), log).split("\n").slice(-3, -1), [
    "100.00,DeadlineExceeded,rpc error: code = DeadlineExceeded desc = context deadline exceeded",
    "120.00,DeadlineExceeded,rpc error: code = DeadlineExceeded desc = context deadline exceeded",
  ]);
  const ok = JSON.parse(ghzOutput(run(), "json", new Date(), log));
  const all = JSON.parse(ghzOutput(run(), "json", new Date(), log, { options: { "count-errors": true } }));
  // Every call in the average (261 ms over 10); in the rest only with --count-errors.
  assertEquals([ok.average, ok.slowest, all.slowest, all.histogram.at(-1).count], [26.1e6, 6e6, 120e6, 1]);
  // The last two to end skipped: the timeouts leave their kind's count.
  const skipped = JSON.parse(ghzOutput(run(), "json", new Date(), log, { options: { skipFirst: 10 } }));
  assertEquals([skipped.count, skipped.statusCodeDistribution], [0, {}]);
  const first = JSON.parse(ghzOutput(run(), "json", new Date(), log, { options: { skipFirst: 9 } }));
  assertEquals(first.statusCodeDistribution, { DeadlineExceeded: 1 });
});

Deno.test("--duration-stop ignore: the calls cut at the end are left out of every count", () => {
  const cut = { ...run(), unfinished: 3 } as RunResult;
  assertEquals(JSON.parse(ghzOutput(cut, "json", new Date(), "", {})).statusCodeDistribution.Canceled, 3);
  const r = JSON.parse(ghzOutput(cut, "json", new Date(), "", { ignoreCut: true }));
  assertEquals([r.count, r.statusCodeDistribution.Canceled], [10, undefined]);
});

Deno.test("--duration-stop wait: ghz's total and rate run until the last call ends, past the run's time", () => {
  const late = LOG + "200;400000;800000;0\n";
  const r = ghzReport(
    { ...run(), requests: 9, statusCodes: { "200": 7, "grpc UNAVAILABLE": 2 } },
    new Date(),
    {},
    loggedCalls(late),
  );
  assertEquals([r.count, r.total, r.rps], [11, 800_000_000, 11 / 0.8]);
  assertEquals(ghzReport(run(), new Date(), {}, loggedCalls(LOG)).total, 500_000_000);
});

Deno.test("each status is keyed by grpc-go's name of its code", () => {
  const statusCodes = {
    "grpc CANCELLED": 1,
    "grpc ALREADY_EXISTS": 1,
    "grpc DEADLINE_EXCEEDED": 1,
    "200": 1,
  };
  const r = ghzReport({ ...run(), statusCodes, errors: {}, errorMessages: {} } as RunResult, new Date());
  assertEquals(Object.keys(r.statusCodeDistribution).sort(), [
    "AlreadyExists",
    "Canceled",
    "DeadlineExceeded",
    "OK",
  ]);
});

Deno.test("a server's RST_STREAM as grpc-go words it and the status it gives", () => {
  const reset = {
    ...run(),
    statusCodes: {},
    errors: { "h2-protocol": 3, "h2-refused-stream": 2 },
    errorMessages: {
      "h2-protocol": { "RST_STREAM INTERNAL_ERROR": 2, "RST_STREAM CANCEL": 1 },
      "h2-refused-stream": { "RST_STREAM REFUSED_STREAM: refused 4 times, not sent again": 2 },
    },
    config: { ...run().config, requests: 5 },
  } as unknown as RunResult;
  const r = ghzReport(reset, new Date());
  assertEquals(r.statusCodeDistribution, { Internal: 2, Canceled: 1, Unavailable: 2 });
  const words = "stream terminated by RST_STREAM with error code:";
  assertEquals(r.errorDistribution, {
    [`rpc error: code = Internal desc = ${words} INTERNAL_ERROR`]: 2,
    [`rpc error: code = Canceled desc = ${words} CANCEL`]: 1,
    [`rpc error: code = Unavailable desc = ${words} REFUSED_STREAM`]: 2,
  });
});

Deno.test("ghz's InfluxDB lines: the run's options as tags, a ghz_run line or a ghz_detail line per call", () => {
  const options = { name: " nightly run ", call: "helloworld.Greeter.SayHello", host: "h:1", total: 10 };
  const labels = { options: { ...options, concurrency: 50, rps: 5 }, tags: { z: "1", a: "b c" } };
  const tags = influxTags(labels.options, labels);
  assertEquals(
    tags,
    'name="nightly\\ run",call="helloworld.Greeter.SayHello",host="h:1",n=10,c=50,rps=5,z=0,timeout=0,' +
      'dial_timeout=0,keepalive=0,data="null",metadata="",tags="{\\"a\\":\\"b\\ c\\"\\,\\"z\\":\\"1\\"}"',
  );
  const date = new Date("2026-01-02T03:04:05.678Z");
  const summary = ghzOutput(run(), "influx-summary", date, LOG, labels);
  match(
    summary,
    /^ghz_run,name="nightly\\ run",call="helloworld\.Greeter\.SayHello",host="h:1",n=10,c=50,.*,errors=4,has_errors=true /,
  );
  match(summary, / count=10,total=500000000,average=\d+,fastest=1000000,slowest=\d+,rps=20\.00,median=\d+,/);
  match(summary, /,p95=\d+,errors=4 1767323045678000000$/);
  const withStart = { ...run(), startedAt: "2026-01-02T03:04:05.000Z" };
  const log = "code;startUs;endUs;connection\n200;1000;2234;0\n1014;7000;17000;0\n";
  const details = ghzOutput(withStart, "influx-details", date, log, labels).split("\n");
  assertEquals(details.slice(0, 2), [
    `ghz_detail,${tags},hasError=false latency=1234000,error="",status="OK" 1767323045001000000`,
    `ghz_detail,${tags},hasError=true latency=10000000,error="rpc\\ error:\\ code\\ \\=\\ Unavailable\\ ` +
    `desc\\ \\=\\ down",status="Unavailable" 1767323045007000000`,
  ]);
  // The calls with no answer, then the line protocol's last newline.
  assertEquals([details.length, details[2].includes('status="DeadlineExceeded" ')], [5, true]);
});

Deno.test("ghz's fields time each call as the request log does (from its actual start), not the run's latency", () => {
  const [intended, sent] = [createHistogram(), createHistogram()];
  for (let i = 0; i < 10; i++) {
    sent.recordValue(50_000 + i * 1000);
    intended.recordValue(50_000 + i * 46_000);
  }
  const late = {
    ...run(),
    statusCodes: { "200": 10 },
    errors: {},
    requests: 10,
    latencyMs: summarizeMs(intended),
    histogramEncoded: encodeHistogram(intended),
    uncorrectedLatencyMs: summarizeMs(sent),
    uncorrectedHistogramEncoded: encodeHistogram(sent),
  } as RunResult;
  // The log's starts are the actual sends (the run keeps them for ghz's report): 50 to 59 ms each.
  const log = [
    "code;startUs;endUs;connection",
    ...[...Array(10).keys()].map((i) => `200;${i};${i + 50_000 + i * 1000};0`),
  ]
    .join("\n");
  const r = JSON.parse(ghzOutput(late, "json", new Date(), log));
  const ms = (ns: number) => Math.round(ns / 1e6);
  assertEquals([ms(r.fastest), ms(r.average), ms(r.slowest)], [50, 55, 59]);
  assertEquals(r.latencyDistribution.every((d: { latency: number }) => ms(d.latency) <= 59), true);
  assertEquals(r.histogram.at(-1).mark, 0.059);
  match(ghzOutput(late, "summary", new Date(), log), /Average:\t54\.50 ms/);
});

Deno.test("a server's status without a message: grpc-go's words end at `desc = `, in the JSON and the CSV", () => {
  const statusCodes = { "200": 6, "grpc NOT_FOUND": 2 }, errors = {};
  const errorMessages = { "grpc NOT_FOUND": { NOT_FOUND: 2 } };
  const shown = { ...run(), statusCodes, errors, errorMessages } as RunResult;
  const r = ghzReport(shown, new Date());
  assertEquals(r.errorDistribution, { "rpc error: code = NotFound desc = ": 2 });
  const log = LOG.replaceAll("1014;", "1005;");
  match(ghzOutput(shown, "csv", new Date(), log), /\n10\.00,NotFound,rpc error: code = NotFound desc = \n/);
  // A code past 16 (counted as UNKNOWN, its number in the message): grpc-go's `Code(17)`.
  const past = { "grpc UNKNOWN": { "grpc-status 17": 1, "grpc-status 4294967295: a\nb": 1 } };
  const codes = ghzReport(
    { ...shown, statusCodes: { "grpc UNKNOWN": 2 }, errorMessages: past } as RunResult,
    new Date(),
  );
  assertEquals(codes.statusCodeDistribution, { "Code(17)": 1, "Code(4294967295)": 1 });
  assertEquals(Object.keys(codes.errorDistribution), [
    "rpc error: code = Code(17) desc = ",
    "rpc error: code = Code(4294967295) desc = a\nb",
  ]);
});

Deno.test("answers broken on the wire read as grpc-go's client words them, under grpc-go's status", () => {
  const base = run();
  const broken = {
    ...base,
    requests: 10,
    statusCodes: { "200": 6, "grpc UNAVAILABLE": 2 },
    errors: { timeout: 0, "grpc-protocol": 12, "closed-early": 3 },
    errorMessages: {
      "grpc UNAVAILABLE": { "not gRPC: HTTP status 503 (Service Unavailable), content-type none": 2 },
      "grpc-protocol": {
        "a message prefix whose compressed flag is neither 0 nor 1: 7": 1,
        "a compressed message without grpc-encoding": 1,
        'a grpc-status that is not a number: "abc"': 1,
        "the stream ended without trailers (no grpc-status)": 1,
        "the stream ended inside a message (its length prefix promised more)": 1,
        'trailers without grpc-status (grpc-message "where is my status")': 1,
        'not gRPC: HTTP status 200 (OK), content-type "text/html"': 1,
        "a unary call's answer with more than one message": 1,
        'a message compressed with "snappy", which loadlab does not inflate (it asks for gzip only)': 1,
        "a compressed message of 6 bytes that is not gzip (incorrect header check)": 1,
        "a compressed message of 30 bytes that is not gzip (incorrect header check)": 1,
        "a gzip message of 15 bytes corrupt before deflate byte 5 (invalid stored block lengths)": 1,
      },
      "closed-early": {
        "the server closed the connection before its SETTINGS": 1,
        "the server closed the connection": 1,
        "the server closed the connection after GOAWAY NO_ERROR": 1,
      },
    },
  } as RunResult;
  const r = ghzReport(broken, new Date());
  // The CSV's answered calls alike.
  match(
    ghzOutput(broken, "csv", new Date(), LOG),
    /,Unavailable,rpc error: code = Unavailable desc = Service Unav/,
  );
  const words = (status: string, desc: string) => `rpc error: code = ${status} desc = ${desc}`;
  assertEquals(r.statusCodeDistribution, {
    OK: 6,
    Unavailable: 5,
    Internal: 8,
    Unknown: 3,
    Unimplemented: 1,
  });
  assertEquals(r.errorDistribution, {
    [
      words("Unavailable", "Service Unavailable: HTTP status code 503; transport: missing content-type field")
    ]: 2,
    [words("Internal", "grpc: received unexpected payload format 7")]: 1,
    [words("Internal", "grpc: compressed flag set with identity or empty encoding")]: 1,
    [words("Internal", 'transport: malformed grpc-status: strconv.Atoi: parsing "abc": invalid syntax')]: 1,
    [words("Internal", "server closed the stream without sending trailers")]: 1,
    [words("Internal", "unexpected EOF")]: 1,
    [words("Unknown", "where is my status")]: 1,
    [
      words(
        "Unknown",
        'OK: HTTP status code 200; transport: received the unexpected content-type "text/html"',
      )
    ]: 1,
    [words("Unknown", "grpc: client streaming protocol violation: get <nil>, want <EOF>")]: 1,
    [words("Unimplemented", 'grpc: Decompressor is not installed for grpc-encoding "snappy"')]: 1,
    [words("Internal", "grpc: failed to decompress the received message unexpected EOF")]: 1,
    [words("Internal", "grpc: failed to decompress the received message gzip: invalid header")]: 1,
    [
      words(
        "Internal",
        "grpc: failed to decompress the received message flate: corrupt input before offset 5",
      )
    ]: 1,
    [words("Unavailable", "connection closed")]: 1,
    [words("Unavailable", "transport is closing")]: 2,
  });
});

Deno.test("a rare HTTP status in grpc-go's words: Go's status text, none where Go has none", () => {
  const none = (code: number, text: string) => `not gRPC: HTTP status ${code} (${text}), content-type none`;
  const shown = {
    ...run(),
    statusCodes: { "200": 6, "grpc UNKNOWN": 5, "grpc PERMISSION_DENIED": 1 },
    errors: {},
    errorMessages: {
      "grpc UNKNOWN": {
        [none(413, "Payload Too Large")]: 1,
        [none(414, "URI Too Long")]: 1,
        [none(416, "Range Not Satisfiable")]: 1,
        [none(418, "I'm a Teapot")]: 1,
        [none(509, "Bandwidth Limit Exceeded")]: 1,
      },
      "grpc PERMISSION_DENIED": {
        'HTTP status 403 (Forbidden): trailers without grpc-status (grpc-message "")': 1,
      },
    },
  } as RunResult;
  const words = (desc: string) => `rpc error: code = Unknown desc = ${desc}`;
  const missing = "transport: missing content-type field";
  // grpc-go 1.34 reads an answer of gRPC's content-type by its trailers alone: no status, Unknown.
  assertEquals(ghzReport(shown, new Date()).errorDistribution, {
    [words(`Request Entity Too Large: HTTP status code 413; ${missing}`)]: 1,
    [words(`Request URI Too Long: HTTP status code 414; ${missing}`)]: 1,
    [words(`Requested Range Not Satisfiable: HTTP status code 416; ${missing}`)]: 1,
    [words(`I'm a teapot: HTTP status code 418; ${missing}`)]: 1,
    [words(`: HTTP status code 509; ${missing}`)]: 1,
    [words("")]: 1,
  });
});

Deno.test("a head of another HTTP status without gRPC's content-type: grpc-go's code, status text and fault", () => {
  const shown = {
    ...run(),
    statusCodes: { "200": 6, "grpc UNAUTHENTICATED": 1, "grpc UNIMPLEMENTED": 1, "grpc UNAVAILABLE": 2 },
    errors: {},
    errorMessages: {
      "grpc UNAUTHENTICATED": { "not gRPC: HTTP status 401 (Unauthorized), content-type none": 1 },
      "grpc UNIMPLEMENTED": { 'not gRPC: HTTP status 404 (Not Found), content-type "text/html"': 1 },
      "grpc UNAVAILABLE": {
        "not gRPC: HTTP status 429 (Too Many Requests), content-type none": 1,
        "not gRPC: HTTP status 502 (Bad Gateway), content-type none": 1,
      },
    },
  } as RunResult;
  const words = (status: string, desc: string) => `rpc error: code = ${status} desc = ${desc}`;
  const missing = "transport: missing content-type field";
  assertEquals(ghzReport(shown, new Date()).errorDistribution, {
    [words("Unauthenticated", `Unauthorized: HTTP status code 401; ${missing}`)]: 1,
    [
      words(
        "Unimplemented",
        'Not Found: HTTP status code 404; transport: received the unexpected content-type "text/html"',
      )
    ]: 1,
    [words("Unavailable", `Too Many Requests: HTTP status code 429; ${missing}`)]: 1,
    [words("Unavailable", `Bad Gateway: HTTP status code 502; ${missing}`)]: 1,
  });
  match(
    ghzOutput(shown, "summary"),
    /\[1\] {3}rpc error: code = Unauthenticated desc = Unauthorized: HTTP status/,
  );
  const log = LOG.replace("1014;0;10000;0", "1012;0;10000;0");
  match(
    ghzOutput(shown, "csv", new Date(), log),
    /\n10\.00,Unimplemented,[^\n]*desc = Not Found: HTTP status code 404;/,
  );
});

Deno.test("a status's calls past the messages kept are counted in ghz's distribution, named so", () => {
  const base = run();
  const errorMessages = { ...base.errorMessages, "grpc UNAVAILABLE": { down: 1, "(other)": 1 } };
  const r = ghzReport({ ...base, errorMessages } as RunResult, new Date());
  assertEquals(r.errorDistribution["rpc error: code = Unavailable desc = down"], 1);
  const past =
    "rpc error: code = Unavailable desc = (other): messages past the 256 KiB of text loadlab keeps a status";
  assertEquals(r.errorDistribution[past], 1);
});

Deno.test("ghz's JSON writes its maps as Go does, keys sorted; its summary keeps them as counted", () => {
  const json = JSON.parse(ghzOutput(run(), "json", new Date(), LOG, { tags: { z: "1", a: "2" } }));
  assertEquals(Object.keys(json.statusCodeDistribution), ["DeadlineExceeded", "OK", "Unavailable"]);
  assertEquals([Object.keys(json.tags), Object.keys(json).at(-1)], [["a", "z"], "tags"]);
  match(ghzOutput(run(), "summary", new Date(), LOG), /\[OK\].*\n.*\[Unavailable\]/);
  // No call: Go's nil list of details, null.
  const none = {
    ...run(),
    requests: 0,
    statusCodes: {},
    errors: {},
    config: { ...run().config, requests: 0 },
  };
  assertEquals(JSON.parse(ghzOutput(none as RunResult, "json", new Date(), "")).details, null);
});

Deno.test("300,000 calls, most unanswered, are listed in one pass: a run stopped at a dead port ends at once", () => {
  const lines = ["code;startUs;endUs;connection"];
  for (let k = 0; k < 200_000; k++) lines.push(`0;${k};${k + 5};0`);
  for (let k = 0; k < 100_000; k++) lines.push(`1014;${k};${k + 9};0`);
  const dead = {
    ...run(),
    requests: 100_000,
    statusCodes: { "grpc UNAVAILABLE": 100_000 },
    errors: { connect: 200_000 },
    errorMessages: { "grpc UNAVAILABLE": { down: 60_000, gone: 40_000 }, connect: { refused: 200_000 } },
  } as unknown as RunResult;
  // Handing each call its error by shifting arrays took minutes here (quadratic); one pass takes a second.
  const startMs = performance.now();
  const csv = ghzOutput(dead, "csv", new Date(), `${lines.join("\n")}\n`).split("\n");
  const tookMs = performance.now() - startMs;
  assertEquals(csv.length, 300_003);
  assertEquals(csv.filter((l) => l.endsWith("desc = gone")).length, 40_000);
  ok(tookMs < 20_000, `listing took ${tookMs.toFixed(0)} ms`);
});
