import assert from "node:assert/strict";
import { ATTACK_FLAGS } from "./flags.ts";
import { parseAttackArgs, type ParsedAttack } from "./args.ts";
import { attackHelp } from "./flags.ts";
import { HelpRequested, UsageError } from "../usage_error.ts";

const URL_ = "http://127.0.0.1:8080/";
const parse = (...argv: string[]): ParsedAttack => parseAttackArgs(argv, { openFileLimit: 1024 });
const enc = (s: string) => new TextEncoder().encode(s);

/** Flag(s) → the config fields they must produce (a subset of the config is compared). */
const CONFIG_CASES: Array<[string[], Record<string, unknown>]> = [
  [[], {
    model: "connections",
    connections: 10,
    durationMs: 10_000,
    url: URL_,
    workers: 1,
    pipelining: 1,
  }],
  [["-c", "50"], { model: "connections", connections: 50 }],
  [["-R", "5", "-c", "2"], { model: "throughput", durationMs: 10_000 }],
  [["--connections", "50"], { connections: 50 }],
  [["--connections=50"], { connections: 50 }],
  [["-c50"], { connections: 50 }],
  [["-c=50"], { connections: 50 }],
  [["-d", "30s"], { durationMs: 30_000 }],
  [["--duration=1m30s"], { durationMs: 90_000 }],
  [["-d", "90"], { durationMs: 90_000 }],
  [["-d", "1.5s"], { durationMs: 1_500 }],
  [["-n", "1000"], { model: "count", requests: 1000, durationMs: undefined, ratePerSec: undefined }],
  [["--requests", "5", "-d", "2s", "-c", "2"], {
    model: "count",
    requests: 5,
    durationMs: 2_000,
    connections: 2,
  }],
  [["-n", "100", "-R", "50"], { model: "count", requests: 100, ratePerSec: 50, maxConnections: 974 }],
  [["-n", "100", "-R", "50", "--max-connections", "20"], { model: "count", maxConnections: 20 }],
  // The rate model has no duration of its own: its phases add up to it.
  [["-R", "100"], {
    model: "rate",
    phases: [{ durationMs: 10_000, ratePerSec: 100 }],
    durationMs: undefined,
  }],
  [["--rate", "2.5", "-d", "4s"], { model: "rate", phases: [{ durationMs: 4_000, ratePerSec: 2.5 }] }],
  [["-R", "10", "--ramp-to", "100", "-d", "1m"], {
    model: "rate",
    phases: [{ durationMs: 60_000, ratePerSec: 10, rampToPerSec: 100 }],
  }],
  [["-R", "0", "--ramp-to", "50"], { phases: [{ durationMs: 10_000, ratePerSec: 0, rampToPerSec: 50 }] }],
  [["--phases", "30s@10,5s@0,30s@50->200"], {
    model: "rate",
    phases: [
      { durationMs: 30_000, ratePerSec: 10 },
      { durationMs: 5_000, ratePerSec: 0 },
      { durationMs: 30_000, ratePerSec: 50, rampToPerSec: 200 },
    ],
  }],
  [["-R", "100", "--max-connections", "200"], { model: "rate", maxConnections: 200 }],
  [["--stage", "1s:5"], { model: "ramping-connections", stages: [{ durationMs: 1_000, target: 5 }] }],
  [["--stages", "30s:50,1m:200,30s:0"], {
    model: "ramping-connections",
    stages: [
      { durationMs: 30_000, target: 50 },
      { durationMs: 60_000, target: 200 },
      { durationMs: 30_000, target: 0 },
    ],
    connections: undefined,
    durationMs: undefined,
  }],
  [["-c", "100", "--ramp-up", "10/s", "-d", "1m"], {
    model: "ramping-connections",
    stages: [{ durationMs: 10_000, target: 100 }, { durationMs: 50_000, target: 100 }],
  }],
  // Locust's spellings, as `loadlab run` takes them: one row of both commands' tables.
  [["-c", "4", "-r", "2/s", "-d", "3s"], {
    stages: [{ durationMs: 2_000, target: 4 }, { durationMs: 1_000, target: 4 }],
  }],
  [["-c", "4", "--spawn-rate", "2/s", "-d", "3s"], { model: "ramping-connections" }],
  [["-R", "100"], { preConnect: undefined, generatorWarmup: true }],
  [["-R", "100", "--pre-connect", "50"], { model: "rate", preConnect: 50 }],
  [["-n", "100", "-R", "50", "--pre-connect", "0"], { model: "count", preConnect: 0 }],
  [["--no-generator-warmup"], { generatorWarmup: false }],
  // Default cap is lowered to fit the open-file limit (1024 - 50 headroom).
  [["-R", "100"], { maxConnections: 974 }],
  [["-R", "2000", "-c", "100"], { model: "throughput", ratePerSec: 2000, connections: 100 }],
  [["-R", "2000", "--co"], { model: "throughput", ratePerSec: 2000, connections: 10 }],
  [["--model", "throughput", "-R", "5"], { model: "throughput", ratePerSec: 5 }],
  [["--model=rate", "-R", "5"], { model: "rate" }],
  [["--model", "COUNT", "-n", "3"], { model: "count", requests: 3 }],
  [["--model", "connections", "-c", "3"], { model: "connections", connections: 3 }],
  [["--timeout", "2s"], { timeoutMs: 2_000 }],
  [["-p", "4"], { pipelining: 4 }],
  [["--pipelining=8"], { pipelining: 8 }],
  [[], { transport: "auto" }],
  [["--transport", "epoll"], { transport: "epoll" }],
  [["--transport=deno"], { transport: "deno" }],
  [["--workers", "2"], { workers: 2 }],
  [["-w", "2"], { workers: 2 }],
  [[], { maxMemoryMb: undefined }],
  [["--max-memory-mb", "4096"], { maxMemoryMb: 4096 }],
  [["--interval", "1s"], { intervalMs: 1_000 }],
  [[], { intervalHistograms: true }],
  [["--interval-histograms", "none"], { intervalHistograms: false }],
  [["--interval-histograms", "keep"], { intervalHistograms: true }],
  [["--warmup", "5s"], { warmupMs: 5_000 }],
  [["--warmup", "0"], { warmupMs: 0 }],
  [["--log", "req.csv"], { logFile: "req.csv" }],
  [["-c", "5", "-c", "7"], { connections: 7 }],
];

Deno.test("parseAttackArgs maps every load flag to the config", () => {
  for (const [argv, expected] of CONFIG_CASES) {
    const { config } = parse(URL_, ...argv);
    const actual = Object.fromEntries(Object.keys(expected).map((k) => [k, (config as any)[k]]));
    assert.deepEqual(actual, expected, argv.join(" "));
  }
});

/** Request-shaping flags → the request mix. */
const REQUEST_CASES: Array<[string[], unknown[]]> = [
  [[], [{ method: "GET", path: "/", headers: [], weight: 1 }]],
  [["-m", "post"], [{ method: "POST", path: "/", headers: [], weight: 1 }]],
  [["--method", "HEAD"], [{ method: "HEAD", path: "/", headers: [], weight: 1 }]],
  [["-H", "Accept: text/plain", "--header", "X-Id:7"], [{
    method: "GET",
    path: "/",
    headers: [["Accept", "text/plain"], ["X-Id", "7"]],
    weight: 1,
  }]],
  [["-m", "POST", "-b", "{}", "-T", "application/json"], [{
    method: "POST",
    path: "/",
    headers: [["Content-Type", "application/json"]],
    body: enc("{}"),
    weight: 1,
  }]],
  [["--content-type=text/csv"], [{
    method: "GET",
    path: "/",
    headers: [["Content-Type", "text/csv"]],
    weight: 1,
  }]],
  [["--body", "x"], [{ method: "GET", path: "/", headers: [], body: enc("x"), weight: 1 }]],
  [["--mix", "GET /json 3", "--mix", "post /user", "-b", "hi", "-H", "A: b"], [
    { method: "GET", path: "/json", headers: [["A", "b"]], weight: 3 },
    { method: "POST", path: "/user", headers: [["A", "b"]], body: enc("hi"), weight: 1 },
  ]],
];

Deno.test("parseAttackArgs builds the request mix from -m, -H, -T, -b and --mix", () => {
  for (const [argv, expected] of REQUEST_CASES) {
    assert.deepEqual(parse(URL_, ...argv).config.requestMix, expected, argv.join(" "));
  }
  assert.equal(parse("http://127.0.0.1:8080/a/b?q=1").config.requestMix[0].path, "/a/b?q=1");
  assert.equal(parse("http://127.0.0.1:8080/ignored", "--mix", "GET /x").config.requestMix[0].path, "/x");
});

Deno.test("--body-file sends the file's bytes as they are", async () => {
  const path = await Deno.makeTempFile({ suffix: ".bin" });
  try {
    await Deno.writeFile(path, new Uint8Array([0, 1, 2, 255]));
    const { config } = parse(URL_, "-m", "PUT", "--body-file", path);
    assert.deepEqual(config.requestMix[0].body, new Uint8Array([0, 1, 2, 255]));
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("--body-file of a file whose size reads 0 but holds bytes (/proc) sends what it holds", () => {
  if (Deno.build.os !== "linux") return;
  const body = parse(URL_, "-m", "POST", "--body-file", "/proc/self/status").config.requestMix[0].body;
  assert.match(new TextDecoder().decode(body), /^Name:/);
});

Deno.test("parseAttackArgs collects output options and thresholds", () => {
  const { files: _, ...bare } = parse(URL_).output;
  assert.deepEqual(bare, {
    json: false,
    outFile: undefined,
    reportFile: undefined,
    quiet: false,
    noLive: false,
    keepSecrets: false,
    strict: false,
  });
  const parsed = parse(
    URL_,
    "--json",
    "--out",
    "r.json",
    "--report=r.html",
    "-q",
    "--no-live",
    "--no-redact",
    "--strict",
    "--threshold",
    "p99<200ms",
    "--threshold=successRate>0.99",
  );
  const { files, ...output } = parsed.output;
  // The files the run writes, as typed, for the write probe before the load.
  assert.deepEqual(files.slice(0, 3), [["--out", "r.json"], ["--report", "r.html"], ["--log", undefined]]);
  assert.deepEqual(output, {
    json: true,
    outFile: "r.json",
    reportFile: "r.html",
    quiet: true,
    noLive: true,
    keepSecrets: true,
    strict: true,
  });
  assert.deepEqual(parsed.thresholds, ["p99<200ms", "successRate>0.99"]);
  assert.equal(parse(URL_, "-o", "x.json").output.outFile, "x.json");
  assert.equal(parse(URL_, "--quiet").output.quiet, true);
});

/** Bad input → exactly this one-line message (string) or a message matching (RegExp). */
const ERROR_CASES: Array<[string[], string | RegExp]> = [
  [[], "missing the target URL; e.g. loadlab attack http://127.0.0.1:8080/ -c 10 -d 10s"],
  [["--", URL_, "-c"], /^one URL expected, got 2/],
  [[URL_, "http://127.0.0.1:9/"], /^one URL expected, got 2 .*--mix/],
  [
    ["localhost:8080"],
    '"localhost:8080": not an http(s), ws(s) or grpc(s) URL; write it with the scheme, e.g. http://127.0.0.1:8080/',
  ],
  [["ftp://127.0.0.1/"], /not an http\(s\), ws\(s\) or grpc\(s\) URL/],
  [["not a url"], /not an http\(s\), ws\(s\) or grpc\(s\) URL/],
  [[URL_, "--ws-message", "hi"], /^--ws-message needs a ws:\/\/ or wss:\/\/ URL/],
  [["ws://127.0.0.1:8080/", "-b", "x"], /^--body is for HTTP; a ws:\/\/ run sends --ws-message/],
  [["ws://127.0.0.1:8080/", "--ws-match", "first"], /^--ws-match "first": expected echo, nth:N/],
  // It failed the load worker as it started: "Failed to decode base64", no flag named.
  [
    ["ws://127.0.0.1:8080/", "--ws-binary", "--ws-message", "!!!x"],
    /^--ws-message: a binary message is the base64/,
  ],
  [
    ["ws://127.0.0.1:8080/", "--ws-per-connection", "1000000000", "-R", "1", "-d", "1s"],
    /^--ws-per-connection: 1,000,000,000 messages on each of 1 connections a second .*at most 10,000,000/,
  ],
  [["ws://127.0.0.1:8080/", "--ws-match", "nth:0"], /^--ws-match: nth: n must be >= 1/],
  [
    ["ws://127.0.0.1:8080/", "--ws-max-message", "65536", "--ws-max-buffered", "100000"],
    /^--ws-max-buffered: ws.maxBufferedBytes must hold at least two messages at the cap/,
  ],
  [[URL_, "--bogus"], "--bogus: unknown flag; see loadlab attack --help"],
  [[URL_, "-G"], "-G: unknown flag; see loadlab attack --help"],
  [[URL_, "-x", "http://127.0.0.1:3128"], /^-x: unknown flag; proxies are not supported/],
  [[URL_, "-t2"], /^-t: unknown flag; for worker threads use --workers/],
  [[URL_, "-z", "10s"], "-z: unknown flag; the duration is -d here, e.g. -d 10s"],
  // Other tools' flags whose value shows their meaning, not loadlab's: refused, naming what to write.
  [[URL_, "-T", "2s"], /^-T "2s": not a Content-Type .*wrk's -T timeout is --timeout$/],
  [[URL_, "-o", "csv"], /^-o "csv": .*hey's -o csv per-request table is --log FILE$/],
  [[URL_, "-d", "@body.json"], /^-d "@body.json": not a duration .*-d body is -b TEXT$/],
  [[URL_, "-c", "10", "-r", "100"], /^-r "100": Locust's spawn rate is N\/s; .*is -R N×c$/],
  [[URL_, "-c", "50", "-q", "100"], /^-q "100": quiet takes no value here; oha's -q N rate is -R N/],
  [[URL_, "--host", "example.com"], /^--host example.com: where --dashboard listens; .*"Host: example.com"$/],
  [[URL_, "-host", "a.test"], /^--host a.test: where --dashboard listens/],
  [[URL_, "-disable-redirects"], /^--disable-redirects: unknown flag; redirects are never followed/],
  [[URL_, "-disable-keepalive"], /^--disable-keepalive: unknown flag; -H "Connection: close"/],
  [[URL_, "-i", "body.json"], /^-i needs a grpc:\/\/ or grpcs:\/\/ URL; .*-i body file is -D FILE$/],
  [["-n", URL_], /^missing the target URL \(-n took http:\/\/127.0.0.1:8080\/ as its value/],
  [[URL_, "-a", "100"], /^-a: unknown flag; a count is -n N \(autocannon -a\); basic auth is -H/],
  [[URL_, "-U"], /^-U: unknown flag; the uncorrected latency is kept/],
  [[URL_, "--latency"], /^--latency: unknown flag; latency percentiles are always printed/],
  [[URL_, "-c"], "-c: missing value; e.g. -c 50"],
  [[URL_, "-c", "--json"], "-c: missing value; e.g. -c 50"],
  [[URL_, "--duration"], "--duration: missing value; e.g. --duration 10s"],
  [[URL_, "--json=yes"], "--json takes no value; write just --json"],
  [[URL_, "-qq"], "-q takes no value; write just -q"],
  [[URL_, "-c", "0"], '-c "0": must be a whole number >= 1, e.g. -c 50'],
  [[URL_, "-c", "-5"], '-c "-5": must be a whole number >= 1, e.g. -c 50'],
  [[URL_, "-c", "2.5"], '-c "2.5": must be a whole number >= 1, e.g. -c 50'],
  [[URL_, "-c", "ten"], /^-c "ten": must be a whole number/],
  [[URL_, "-n", "0"], '-n "0": must be a whole number >= 1, e.g. -n 1000'],
  [[URL_, "-n", "1e3"], /^-n "1e3": must be a whole number >= 1 written in digits \(1000\)/],
  [[URL_, "-p", "0"], /^-p "0": must be a whole number/],
  [[URL_, "-p", "300"], /^-p: .*256/],
  [[URL_, "--transport", "uring"], /^--transport: .*"auto"/],
  [[URL_, "--workers", "0"], /^--workers "0": must be a whole number/],
  [[URL_, "--max-memory-mb", "100"], /^--max-memory-mb: max memory must be >= 256 MB/],
  [[URL_, "--workers", "3", "-c", "2"], /^--workers: workers \(3\) must not exceed connections \(2\)/],
  [[URL_, "-w", "3", "--connections", "2"], /^-w: workers \(3\) must not exceed connections \(2\)/],
  [[URL_, "--pipelining", "300"], /^--pipelining: .*256/],
  [[URL_, "--max-connections", "0", "-R", "5"], /^--max-connections "0": must be a whole number/],
  [
    [URL_, "-d", "10x"],
    '-d "10x": not a duration; use a number with ms, s, m or h, each unit once, largest first, e.g. -d 10s',
  ],
  [[URL_, "--duration", "0"], '--duration "0": must be longer than 0, e.g. --duration 10s'],
  [[URL_, "-d", "-5s"], /^-d "-5s": not a duration/],
  [[URL_, "--timeout", "0s"], /^--timeout "0s": must be longer than 0/],
  [[URL_, "--timeout", "soon"], /^--timeout "soon": not a duration/],
  [[URL_, "--interval", "5ms"], /^--interval: interval must be >= 10ms/],
  [[URL_, "--interval", "x"], /^--interval "x": not a duration/],
  [
    [URL_, "--interval-histograms", "all"],
    /^--interval-histograms "all": must be one of keep, none, e.g. --interval-histograms none$/,
  ],
  [[URL_, "--warmup", "1y"], /^--warmup "1y": not a duration/],
  [[URL_, "-R", "0"], /^-R "0": must be a rate in requests per second > 0/],
  [[URL_, "-R", "-10"], /^-R "-10": must be a rate/],
  [[URL_, "-R", "fast"], /^-R "fast": must be a rate/],
  [[URL_, "-R", "5", "--ramp-to", "x"], /^--ramp-to "x": must be a rate in requests per second >= 0/],
  [[URL_, "--ramp-to", "100"], "--ramp-to needs a starting rate; add -R, e.g. -R 10 --ramp-to 100"],
  [[URL_, "-R", "5", "-c", "2", "--ramp-to", "9"], /^--ramp-to has no effect with the throughput model/],
  [[URL_, "--phases", "30s@x"], /^--phases "30s@x": .* is not a rate/],
  [[URL_, "--phases", "10s@1", "-R", "5"], "-R and --phases both set the rate; use one of them"],
  [[URL_, "--phases", "10s@1", "-d", "5s"], "-d conflicts with --phases, whose durations add up; drop it"],
  [[URL_, "--phases", "10s@1", "-c", "5"], /^-c has no effect with the rate model; .*--max-connections/],
  [[URL_, "--phases", "10s@1", "--co"], /^--phases has no effect with the throughput model/],
  [
    [URL_, "--model", "fast"],
    '--model "fast": unknown model; use connections, rate, throughput, count or ramping-connections',
  ],
  [
    [URL_, "--stages", "30s:5,-1m:200"],
    /^--stages "30s:5,-1m:200": stage 2 \("-1m:200"\): "-1m" is not a duration/,
  ],
  [
    [URL_, "--stages", "30s:5,1m:-2"],
    /^--stages "30s:5,1m:-2": stage 2 \("1m:-2"\): "-2" is not a number of connections/,
  ],
  [
    [URL_, "--stages", "30s:5,1m:1000001"],
    /^--stages .*: stage 2 \("1m:1000001"\): 1000001 is over the cap of 1,000,000/,
  ],
  [[URL_, "--stages", "30s:0,1m:0"], /^--stages "30s:0,1m:0": no stage opens a connection/],
  [[URL_, "--stages", "30s:5,,1m:2"], /^--stages .*: stage 2 \(""\) is not DURATION:TARGET/],
  [[URL_, "--stages", "30s:5", "-c", "5"], /^-c conflicts with --stages, whose targets and durations set/],
  [[URL_, "--stages", "30s:5", "-d", "5s"], /^-d conflicts with --stages/],
  [[URL_, "--stages", "30s:5", "-R", "5"], /^--stages has no effect with the rate model/],
  [[URL_, "--ramp-up", "10/s"], /^the ramping-connections model needs --stages, or --ramp-up with -c/],
  [[URL_, "--ramp-up", "fast", "-c", "5"], /^--ramp-up "fast": not a spawn rate/],
  [[URL_, "--ramp-up", "1/s", "-c", "50", "-d", "10s"], /^--ramp-up 1\/s to -c 50 takes 50s, not shorter/],
  [[URL_, "--model", "throughput"], "the throughput model needs -R <req/s>, e.g. -R 1000 -c 50"],
  [[URL_, "--co"], "the throughput model needs -R <req/s>, e.g. -R 1000 -c 50"],
  [[URL_, "--model", "rate"], "the rate model needs -R <req/s> or --phases, e.g. -R 100"],
  [[URL_, "--model", "count"], "the count model needs -n <requests>, e.g. -n 1000"],
  [[URL_, "--model", "connections", "-R", "5"], /^-R has no effect with the connections model; drop -R/],
  [[URL_, "--model", "rate", "-n", "5"], /^-n has no effect with the rate model; drop -n/],
  [[URL_, "--model", "rate", "-R", "5", "--co"], /^--co has no effect with the rate model/],
  [[URL_, "--max-connections", "5"], /^--max-connections has no effect with the connections model/],
  [[URL_, "-n", "5", "--max-connections", "5"], /^--max-connections is for open pacing only/],
  [[URL_, "-n", "5", "--pre-connect", "5"], /^--pre-connect is for open pacing only/],
  [[URL_, "-R", "5", "-c", "2", "--pre-connect", "5"], /^--pre-connect has no effect with the throughput/],
  [[URL_, "-R", "5", "--pre-connect", "-1"], /^--pre-connect "-1": must be a whole number >= 0/],
  [["http://127.0.0.1:0/"], /^url: port 0 is no server's .*give the port the target listens on/],
  // One send at once, read as 250 times the rate asked; named by the flags written, not --phases.
  [[URL_, "-R", "0.001", "-d", "2s"], /^-R over -d \(2 s\): plans 0\.002 sends in all, fewer than one/],
  [[URL_, "-H", "Host: a", "-H", "host: b"], /^-H sets Host twice: drop one/],
  [
    [URL_, "-H", "NoColon"],
    '-H "NoColon": not a header; write "Name: value", e.g. -H "Accept: application/json"',
  ],
  [[URL_, "-H", ": v"], /^-H ": v": not a header/],
  [[URL_, "-H", "Bad Name: v"], /^-H "Bad Name: v": not a header/],
  [[URL_, "-H", "A: b\r\nX: y"], /header values cannot contain line breaks/],
  [[URL_, "-H", "A: b\x01c"], /^-H "A: b\\u0001c": header values cannot contain control characters/],
  // A length of the user's that differs from the body made the rest of the body the next request's start.
  [
    [URL_, "-m", "POST", "-b", "abcdefghij", "-H", "Content-Length: 5"],
    /^-H "Content-Length: 5": Content-Length is loadlab's to set/,
  ],
  [
    [URL_, "-b", "abc", "-H", "Transfer-Encoding: chunked"],
    /Transfer-Encoding is loadlab's to set.*drop the header$/,
  ],
  [[URL_, "-T", "a/b", "-H", "content-type: c/d"], /^-T and -H both set Content-Type/],
  [[URL_, "-m", "GE T"], /^-m "GE T": not an HTTP method/],
  [[URL_, "-b", "x", "--body-file", "y"], "-b and --body-file both set the body; use one of them"],
  [
    [URL_, "--body-file", "/nonexistent/body.json"],
    /^--body-file "\/nonexistent\/body.json": no such file; give the path/,
  ],
  [[URL_, "--body-file", "/"], /^--body-file "\/": is a folder/],
  [[URL_, "--mix", "GET"], /^--mix "GET": expected 2 or 3 words; write "METHOD \/path \[weight\]"/],
  [[URL_, "--mix", "GET json"], /^--mix "GET json": the path must start with '\/'/],
  [[URL_, "--mix", "GET /a 0"], /^--mix "GET \/a 0": weight "0" must be a number > 0/],
  [[URL_, "--mix", "G3T /a"], /is not an HTTP method/],
  [[URL_, "--mix", "GET /a", "-m", "POST"], /^-m has no effect with --mix/],
  [[URL_, "--out", ""], '--out "": empty path, e.g. --out results.json'],
  [
    [URL_, "--connect-to", "127.0.0.1:0"],
    /^--connect-to: connectTo port 0 is not 1-65535, e.g\. 127\.0\.0\.1:8443;/,
  ],
  [[URL_, "--connect-to", "h:99999"], /^--connect-to: connectTo port 99999 is not 1-65535/],
  [[URL_, "--connect-to", "[::1]:65536"], /^--connect-to: connectTo port 65536 is not 1-65535/],
  [
    [URL_, "-c", "1000"],
    /^-c 1000: needs 1000 sockets but the open-file limit is 1024 .* or use at most -c 974$/,
  ],
  [
    [URL_, "-R", "5", "--max-connections", "2000"],
    /^--max-connections 2000: needs 2000 sockets .*ulimit -n 4096/,
  ],
];

Deno.test("bad input throws one UsageError line naming the problem and the fix", () => {
  for (const [argv, expected] of ERROR_CASES) {
    let caught: unknown;
    try {
      parse(...argv);
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof UsageError, `${JSON.stringify(argv)} should throw UsageError, got ${caught}`);
    assert.ok(!caught.message.includes("\n"), `one line: ${caught.message}`);
    if (typeof expected === "string") assert.equal(caught.message, expected, JSON.stringify(argv));
    else assert.match(caught.message, expected, JSON.stringify(argv));
  }
});

Deno.test("a ws:// URL takes the WebSocket flags into the run's ws config; -H goes on the handshake", () => {
  const { config } = parseAttackArgs([
    "ws://127.0.0.1:8080/ws/room",
    "--ws-message",
    '{"a":1}',
    "--ws-message",
    "b",
    "--ws-match",
    "json:type=ack",
    "--ws-per-connection",
    "3",
    "-H",
    "Origin: http://x",
    "-c",
    "4",
  ], { openFileLimit: null });
  assert.deepEqual(
    [config.url, config.ws?.messages, config.ws?.match, config.ws?.messagesPerConnection, config.ws?.headers],
    ["ws://127.0.0.1:8080/ws/room", ['{"a":1}', "b"], { kind: "json", field: "type", equals: "ack" }, 3, {
      Origin: "http://x",
    }],
  );
});

Deno.test("--ws-deflate offers permessage-deflate; off without it; refused with an http URL", () => {
  const ws = (args: string[]) => parseAttackArgs(args, { openFileLimit: null }).config.ws?.deflate;
  assert.deepEqual([ws(["ws://127.0.0.1:8080/", "--ws-deflate"]), ws(["ws://127.0.0.1:8080/"])], [
    true,
    false,
  ]);
  assert.throws(
    () => parseAttackArgs([URL_, "--ws-deflate"], { openFileLimit: null }),
    /^.*--ws-deflate needs a ws:/,
  );
});

Deno.test("--ws-max-buffered sets the worker's budget for messages in progress; 256 MiB without it", () => {
  const budget = (args: string[]) =>
    parseAttackArgs(args, { openFileLimit: null }).config.ws?.maxBufferedBytes;
  assert.deepEqual(
    [budget(["ws://127.0.0.1:8080/", "--ws-max-buffered", "4194304"]), budget(["ws://127.0.0.1:8080/"])],
    [4194304, 256 * 1024 * 1024],
  );
});

Deno.test("the real open-file limit is read and enforced", () => {
  // Far above any soft limit a test machine has; fails only when the limit cannot be read at all.
  assert.throws(() => parseAttackArgs([URL_, "-c", "1000000000"]), UsageError);
  const { config } = parseAttackArgs([URL_, "-c", "1000000000"], { openFileLimit: null, localPorts: null });
  assert.equal(config.model === "connections" && config.connections, 1e9);
});

Deno.test("-h and --help carry the help text; every flag is documented", () => {
  for (const argv of [["-h"], ["--help"], [URL_, "-c", "0", "--help"]]) {
    assert.throws(
      () => parseAttackArgs(argv),
      (err) => err instanceof HelpRequested && err.text === attackHelp(),
      argv.join(" "),
    );
  }
  const help = attackHelp();
  for (const spec of ATTACK_FLAGS) {
    assert.ok(help.includes(`--${spec.long}`), `--${spec.long} documented`);
    if (spec.short) assert.ok(help.includes(`-${spec.short}, --${spec.long}`), `-${spec.short} documented`);
  }
});

Deno.test("hey's one-dash long flags and autocannon's -j read as theirs: -h2, -cpus, -j", () => {
  const parsed = parse(URL_, "-h2", "-cpus", "2", "-j");
  assert.equal(parsed.config.protocol, "h2");
  assert.equal(parsed.config.workers, 2);
  assert.equal(parsed.output.json, true);
});

Deno.test("k6's --vus and Locust's -u and --users are -c's spellings", () => {
  for (const argv of [["-u", "7"], ["--vus", "7"], ["--users=7"], ["-c", "7"]]) {
    const { config } = parseAttackArgs([URL_, ...argv], { openFileLimit: null });
    assert.equal(config.model === "connections" && config.connections, 7, argv.join(" "));
  }
});
