/**
 * @module
 * The flag table of `loadlab attack`, with short forms from wrk, oha, wrk2, hey and autocannon, hints for
 * other tools' flags, and the `--help` text around it.
 */
import { ABORT_ON_FAIL, DELAY_ABORT_EVAL, SEGMENT_FLAGS } from "../segment_args.ts";
import { BASELINE_FLAGS } from "../baseline_flags.ts";
import { CI_FLAGS } from "../ci_outputs.ts";
import { exitCodesHelp, STRICT_FLAG } from "../exit_codes.ts";
import { flag, flagsOf, type FlagSpec, type FlagTable, helpOf } from "../argv.ts";
import { type FlagValues, optionFlags, readFlags } from "../flag_values.ts";
import { UsageError } from "../usage_error.ts";
import { DASHBOARD_FLAGS } from "../dashboard/flags.ts";
import { WS_OPTIONS } from "../../runner/http/ws/config.ts";
import { TLS_OPTIONS } from "../../runner/http/tls/options.ts";
import { GRPC_FLAGS } from "./grpc_args.ts";
import { DATA_FILE_FLAGS } from "./request_args.ts";
import { type OptionKey, OPTIONS } from "../../runner/config_fields.ts";

/** The flag of each option that has one (runner/config_fields.ts). */
export const OPTION_FLAGS = optionFlags(OPTIONS) as {
  [K in OptionKey as (typeof OPTIONS)[K] extends { flag: string } ? K : never]: FlagSpec;
};
/** The `--ws-*` flags (runner/http/ws/config.ts) and the TLS flags, setting the `ws.` and `tls.` fields. */
export const WS_FLAGS = optionFlags(WS_OPTIONS, "ws.");
export const TLS_FLAGS = optionFlags(TLS_OPTIONS, "tls.");

const ATTACK_TABLE: FlagTable = [
  "Load",
  { ...OPTION_FLAGS.connections, config: ["connections", "concurrency"] },
  flag("--connections N", { example: "4", config: ["connections"] }, [
    "the same; on a grpc:// URL without --streams, ghz's: -c calls",
    "in flight dealt over N connections in turn (N 1 there)",
  ]),
  OPTION_FLAGS.durationMs,
  OPTION_FLAGS.requests,
  OPTION_FLAGS.maxDurationMs,
  OPTION_FLAGS.ratePerSec,
  flag("--ramp-to N", { example: "200" }, [
    "ramp the rate linearly from -R to N over the duration (rate model)",
  ]),
  flag("--phases LIST", { example: "30s@10,60s@50->200", config: ["phases"] }, [
    "arrival-rate phases, Artillery-like: DURATION@RATE or",
    "DURATION@FROM->TO, comma-separated; a rate of 0 is a pause, e.g.",
    '--phases "30s@10,60s@20,60s@100,30s@50->200"  (replaces -R and -d)',
  ]),
  OPTION_FLAGS.stages,
  OPTION_FLAGS.rampUp,
  flag("--model M", { example: "rate", config: ["model"] }, [
    "connections | rate | throughput | count | ramping-connections",
  ]),
  flag("--co", {}, ["same as --model throughput (coordinated-omission corrected)"]),
  OPTION_FLAGS.maxConnections,
  OPTION_FLAGS.preConnect,
  OPTION_FLAGS.pipelining,
  OPTION_FLAGS.transport,
  OPTION_FLAGS.sourceAddresses,
  OPTION_FLAGS.protocol,
  flag("--h2", {}, ["same as --protocol h2"]),
  flag("--h3", {}, ["same as --protocol h3 (experimental)"]),
  OPTION_FLAGS.streams,
  OPTION_FLAGS.h2WindowBytes,
  "WebSocket (a ws:// or wss:// URL; -H headers go on the handshake; docs/WEBSOCKET.md):",
  ...Object.values(WS_FLAGS),
  "gRPC (a grpc:// or grpcs:// URL: h2c or h2; -b the message as JSON, -H metadata; docs/GRPC.md):",
  ...GRPC_FLAGS,
  flag("-O, --format F", { example: "json" }, [
    "ghz's report on stdout (or its -o file, then no results.json):",
    "summary, json or pretty (docs/GRPC.md)",
  ]),
  OPTION_FLAGS.workers,
  OPTION_FLAGS.maxMemoryMb,
  OPTION_FLAGS.warmupMs,
  flag("--no-generator-warmup", { config: ["generatorWarmup"] }, [
    "skip loadlab's own warm-up before the start (a burst of up",
    "to ~250 ms, ~550 over ws, against an in-process sink, never the",
    "target)",
  ]),
  OPTION_FLAGS.timeoutMs,
  OPTION_FLAGS.connectTimeoutMs,
  OPTION_FLAGS.gracefulStopMs,
  OPTION_FLAGS.maxHeaderBytes,
  "",
  "Requests",
  flag("-m, --method M", { example: "POST" }, [
    "HTTP method                                               [GET]",
  ]),
  flag('-H, --header "N: v"', { repeatable: true, example: '"Accept: application/json"' }, [
    "add a header to every request; repeatable",
  ]),
  flag("-T, --content-type T", { example: "application/json" }, ['shorthand for -H "Content-Type: T"']),
  flag("-b, --body TEXT", { aliases: ["data"], example: "'{\"a\":1}'" }, ["request body (--data too)"]),
  flag("-D, --body-file PATH", { example: "payload.json" }, [
    "request body read from a regular file of at most 16 MiB (bytes as",
    "they are)",
  ]),
  flag('--mix "M /path [W]"', { repeatable: true, example: '"GET /json 3"', config: ["requestMix"] }, [
    "a request mix instead of the URL's path; repeatable. Each entry is",
    "METHOD, a path relative to the URL's origin, and an optional weight",
    '(default 1): --mix "GET /json 3" --mix "POST /user 1" sends 3 GETs',
    "for each POST. -H goes on every entry; -b/--body-file on every entry",
    "whose method is not GET or HEAD. Each entry is an endpoint measured",
    'apart, named "METHOD /path" (results, report, thresholds, metrics out)',
  ]),
  ...Object.values(DATA_FILE_FLAGS),
  "",
  "TLS (https: URLs; docs/TLS.md)",
  ...Object.values(TLS_FLAGS),
  "  Handshake time is its own measurement (tlsMs beside connectTimeMs); verification",
  "  failures count as tls errors named expired, unknown-ca or hostname.",
  "",
  "Scale-out (docs/scale-out.md)",
  ...SEGMENT_FLAGS,
  "",
  "Output",
  flag("-j, --json", {}, [
    "print one JSON object (rps, latencyMs, statusCodes, errors, ...) on",
    "stdout instead of the summary",
  ]),
  flag("-o, --out FILE", { aliases: ["output"], repeatable: true, example: "results.json" }, [
    "write results.json (loadlab.results/v3; --output too)",
  ]),
  "      --out KIND=URL       stream metrics per interval while the load runs (repeatable):",
  "                           prometheus-remote-write=URL (native histograms), otlp=URL (OTLP/HTTP",
  "                           protobuf) or otlp-json=URL; never slows the load, drops counted",
  "                           (docs/METRICS_OUT.md)",
  flag("--report FILE", { example: "report.html" }, ["write a self-contained HTML report"]),
  ...CI_FLAGS,
  OPTION_FLAGS.logFile,
  OPTION_FLAGS.intervalMs,
  flag("--interval-histograms keep|none", { example: "none", config: ["intervalHistograms"] }, [
    "keep each interval's latency histogram in results.json   [keep]",
    "(exact re-analysis; none makes the file smaller)",
  ]),
  flag("--threshold EXPR", { repeatable: true, example: '"p99<200ms"' }, [
    'fail (exit 1) unless EXPR holds, e.g. "p99<200ms"; repeatable. On',
    'endpoints: "p99{name:GET /json}<200ms", {method:POST}, a tag, or k6\'s',
    '"http_req_duration{name:GET /json}: p(99)<200"; a selector matching no',
    "endpoint is exit 2 naming them",
  ]),
  {
    ...ABORT_ON_FAIL,
    help: [
      "judge each --threshold while the load runs and stop it (exit 1) at the",
      "first failure, as k6's abortOnFail; the results say which and when",
    ],
  },
  { ...DELAY_ABORT_EVAL, help: ["not before D of measured time, e.g. 10s (k6's delayAbortEval)     [0s]"] },
  STRICT_FLAG,
  ...BASELINE_FLAGS,
  flag("-q, --quiet", {}, ["print nothing but errors (and --json output)"]),
  flag("--no-live", {}, ["no live progress line"]),
  flag("--no-redact", {}, [
    "keep secrets in results, report and printed output (by default URL",
    "passwords, Authorization/Cookie/*token*/*key*/*secret*/*signature*",
    "headers and such query parameters become [redacted N chars sha256:...])",
  ]),
  ...DASHBOARD_FLAGS,
  flag("-h, --help", {}, ["this help"]),
];

export const ATTACK_FLAGS: FlagSpec[] = flagsOf(ATTACK_TABLE);

/** What to tell someone who typed another tool's flag. */
const HINTS: Record<string, string> = {
  "-t": "for worker threads use --workers N (wrk -t); for a timeout use --timeout 10s (autocannon -t)",
  "--threads": "use --workers N",
  "-z": "the duration is -d here, e.g. -d 10s",
  "--latency": "latency percentiles are always printed; drop --latency",
  "--rps": "the rate is -R here, e.g. -R 1000",
  "--amount": "the request count is -n here, e.g. -n 1000",
  "-X": "the method is -m here, e.g. -m POST",
  "-s": "wrk Lua scripts are not supported; use -m, -H, -b and --mix",
  "--script": "wrk Lua scripts are not supported; use -m, -H, -b and --mix",
  "--no-tui": "there is no TUI; use --no-live to drop the live line",
  "--http2": "use --h2 (HTTP/2 over TLS by ALPN, h2c on http://) and --streams N",
  "--max-concurrent-streams": "streams per connection are --streams N here (h2load -m)",
  "--arrival-rate": "the open-model rate is -R here, e.g. -R 100",
  "--ghz-config": "a ghz config runs as ghz runs it: loadlab ghz --config FILE",
  "-a": 'a count is -n N (autocannon -a); basic auth is -H "Authorization: Basic BASE64" (oha, hey -a)',
  "-A": 'the Accept header is -H "Accept: T"',
  "-l": "latency percentiles are always printed; drop -l",
  "-U": "the uncorrected latency is kept beside the corrected one (--json: uncorrectedLatencyMs); drop -U",
  "--output-format": "JSON on stdout is --json; -o FILE writes results.json",
  "--disable-keepalive": '-H "Connection: close" has the server close each connection; a new one sends next',
  "--disable-compression": "no Accept-Encoding is sent unless -H sets one; drop it",
  "--redirect": "redirects are never followed (a 3xx counts as its status); drop it",
  "--disable-redirects": "redirects are never followed (a 3xx counts as its status); drop it",
  "--latency-correction": "-R with -c measures latency from each intended send (wrk2's model)",
  "--burst-delay": 'bursts are --phases, e.g. --phases "1s@100,4s@0"',
  "--rand-regex-url": "random URL parts are {{ $randomString(8) }} or {{ $randomNumber(1,9) }}",
  "--urls-from-file": 'several paths are --mix "GET /path"; rows of a file fill {{ name }} (--data-file)',
  "-x": "proxies are not supported: give the target's own URL",
  "--unix-socket": "unix sockets are not supported: give the target's TCP URL",
  "--ipv4": "the URL's address is dialled as written: give an IPv4 one, e.g. http://127.0.0.1:8080/",
  "--burst-rate": 'bursts are --phases, e.g. --phases "1s@100,4s@0"',
};

/** A known flag whose value (-q: a number after it) shows another tool's meaning, e.g. wrk's `-T 2s`. */
const CLASHES: Record<string, [RegExp, string]> = {
  "content-type": [/^[^/]+$/, "not a Content-Type (type/subtype); wrk's -T timeout is --timeout"],
  out: [/^csv$/, "-o names the results.json file; hey's -o csv per-request table is --log FILE"],
  duration: [/^[^\p{Nd}.\s-]/u, "not a duration (wrk's -d); oha's and hey's -d body is -b TEXT"],
  "ramp-up": [/^[\d.]+$/, "Locust's spawn rate is N/s; autocannon's -r N per connection is -R N×c"],
  quiet: [/^[\d.]+$/, "quiet takes no value here; oha's -q N rate is -R N, hey's (per worker) -R N×c"],
};

/** The flags of `loadlab attack`; a value that shows another tool's meaning of its flag is refused. */
export function readAttackFlags(argv: string[]): FlagValues {
  const flags = readFlags(argv, ATTACK_TABLE, "attack", attackHelp(), HINTS);
  for (const [long, [shows, why]] of Object.entries(CLASHES)) {
    const values = long !== "quiet" ? flags.all(long) : flags.has(long) ? flags.raw.positionals : [];
    const value = values.find((v) => shows.test(v));
    if (value !== undefined) throw new UsageError(`${flags.typed(long)} ${JSON.stringify(value)}: ${why}`);
  }
  return flags;
}

export function attackHelp(): string {
  return `loadlab attack <url> [flags]

Send HTTP/1.1 load to one URL and print latency, throughput and errors.

Load models (how requests are paced)
  connections  closed model: N connections, each sends the next request when the previous
               response ends (autocannon, oha -c). The default: -c 10 -d 10s.
  rate         open model: requests arrive at a set rate whatever the server does (Artillery
               arrivalRate, k6 constant/ramping-arrival-rate); connections are opened on demand.
  throughput   wrk2 -R: a constant total rate over fixed connections; latency is measured from the
               intended send time (coordinated omission corrected) and the uncorrected one is kept.
  count        exactly -n requests, closed (over -c connections) or open-paced with -R.
  ramping-connections
               closed model whose connections follow stages (k6 stages, Locust spawn rate):
               added and retired on schedule; a retired one finishes its request, then closes.

  Which model runs, unless --model says so:
    -n N               -> count
    --co, or -R with -c -> throughput   (what wrk2 users type: -c 100 -R 2000)
    -R, --ramp-to, --phases alone -> rate
    --stages, or --ramp-up with -c -> ramping-connections
    none of these      -> connections
  A flag the chosen model would ignore is an error, not a silent no-op.

${helpOf(ATTACK_TABLE, { flagAt: 2, textAt: 27, shortColumn: true })}

${exitCodesHelp("attack")}

Examples
  loadlab attack http://127.0.0.1:8080/ -c 50 -d 30s
  loadlab attack http://127.0.0.1:8080/ -n 10000 -c 20
  loadlab attack http://127.0.0.1:8080/ -R 500 -d 1m                 # open model
  loadlab attack http://127.0.0.1:8080/ -R 2000 -c 100 -d 30s        # wrk2-style, CO corrected
  loadlab attack http://127.0.0.1:8080/ --phases "30s@10,60s@10->200,30s@0"
  loadlab attack http://127.0.0.1:8080/ --mix "GET /json 3" --mix "POST /user 1" -b '{"a":1}' \\
    -T application/json --json --out results.json
`;
}
