/**
 * @module
 * The flag table of `loadlab attack` and advice for other tools' flags. Short forms follow the tool a user
 * comes from: `-c -d` (wrk, k6), `-n -m -H` (oha, hey), `-R` (wrk2), `-b -w -p` (autocannon).
 */
import { ABORT_FLAGS } from "./abort_flags.ts";
import { BASELINE_FLAGS } from "./baseline_flags.ts";
import type { FlagSpec } from "./argv.ts";
import { DASHBOARD_FLAGS } from "./dashboard_flags.ts";
import { WS_FLAGS } from "./ws_args.ts";
import { GRPC_FLAGS } from "./grpc_args.ts";
import { DATA_FILE_FLAGS } from "./data_file_args.ts";

export const ATTACK_FLAGS: FlagSpec[] = [
  // -c is --connections, or on a grpc:// URL ghz's concurrency over --connections (grpc_args.ts).
  { long: "concurrency", short: "c", takesValue: true, example: "50" },
  { long: "connections", takesValue: true, example: "4" },
  { long: "duration", short: "d", takesValue: true, example: "10s" },
  { long: "requests", short: "n", aliases: ["total"], takesValue: true, example: "1000" },
  { long: "max-duration", takesValue: true, example: "10m" },
  { long: "rate", short: "R", takesValue: true, example: "1000" },
  { long: "ramp-to", takesValue: true, example: "200" },
  { long: "phases", takesValue: true, example: "30s@10,60s@50->200" },
  { long: "stages", takesValue: true, example: "30s:50,1m:200,30s:0" },
  { long: "ramp-up", takesValue: true, example: "10/s" },
  { long: "model", takesValue: true, example: "rate" },
  { long: "co", takesValue: false },
  { long: "max-connections", takesValue: true, example: "500" },
  { long: "pre-connect", takesValue: true, example: "50" },
  { long: "method", short: "m", takesValue: true, example: "POST" },
  { long: "header", short: "H", takesValue: true, repeatable: true, example: '"Accept: application/json"' },
  { long: "body", short: "b", aliases: ["data"], takesValue: true, example: "'{\"a\":1}'" },
  { long: "body-file", short: "D", takesValue: true, example: "payload.json" },
  { long: "content-type", short: "T", takesValue: true, example: "application/json" },
  { long: "mix", takesValue: true, repeatable: true, example: '"GET /json 3"' },
  ...WS_FLAGS,
  ...GRPC_FLAGS,
  ...DATA_FILE_FLAGS,
  { long: "timeout", takesValue: true, example: "5s" },
  { long: "max-header-bytes", takesValue: true, example: "65536" },
  { long: "pipelining", short: "p", takesValue: true, example: "4" },
  { long: "transport", takesValue: true, example: "epoll" },
  { long: "source-addresses", takesValue: true, example: "127.0.0.1-127.0.0.4" },
  { long: "protocol", takesValue: true, example: "h2" },
  { long: "h2", takesValue: false },
  { long: "streams", takesValue: true, example: "10" },
  { long: "h2-window", takesValue: true, example: "16777216" },
  { long: "insecure", short: "k", takesValue: false },
  { long: "cacert", takesValue: true, example: "ca.pem" },
  { long: "cert", takesValue: true, example: "client.pem" },
  { long: "key", takesValue: true, example: "client-key.pem" },
  { long: "sni", takesValue: true, example: "api.example.com" },
  { long: "connect-to", takesValue: true, example: "127.0.0.1:8443" },
  { long: "tls-resume", takesValue: true, example: "off" },
  { long: "workers", short: "w", aliases: ["cpus"], takesValue: true, example: "2" },
  { long: "max-memory-mb", takesValue: true, example: "4096" },
  { long: "interval", takesValue: true, example: "250ms" },
  { long: "interval-histograms", takesValue: true, example: "none" },
  { long: "warmup", takesValue: true, example: "5s" },
  { long: "no-generator-warmup", takesValue: false },
  { long: "log", takesValue: true, example: "requests.csv" },
  { long: "segment", takesValue: true, example: "0/4" },
  { long: "start-at", takesValue: true, example: "2026-11-21T17:00:00Z" },
  { long: "json", takesValue: false },
  {
    long: "out",
    short: "o",
    aliases: ["output"],
    takesValue: true,
    repeatable: true,
    example: "results.json",
  },
  { long: "format", short: "O", takesValue: true, example: "json" },
  { long: "report", takesValue: true, example: "report.html" },
  { long: "output-bench", takesValue: true, example: "bench.json" },
  { long: "summary", takesValue: true, example: "summary.md" },
  { long: "junit", takesValue: true, example: "junit.xml" },
  { long: "threshold", takesValue: true, repeatable: true, example: '"p99<200ms"' },
  ...ABORT_FLAGS,
  { long: "strict", takesValue: false },
  ...BASELINE_FLAGS,
  { long: "quiet", short: "q", takesValue: false },
  { long: "no-live", takesValue: false },
  { long: "no-redact", takesValue: false },
  ...DASHBOARD_FLAGS,
  { long: "help", short: "h", takesValue: false },
];

/** What to tell someone who typed another tool's flag. */
export const FOREIGN_FLAG_HINTS: Record<string, string> = {
  "-t": "for worker threads use --workers N (wrk -t); for a timeout use --timeout 10s (autocannon -t)",
  "--threads": "use --workers N",
  "-z": "the duration is -d here, e.g. -d 10s",
  "--latency": "latency percentiles are always printed; drop --latency",
  "-u": "connections are -c here, e.g. -c 50",
  "--vus": "connections are -c here, e.g. -c 50",
  "--rps": "the rate is -R here, e.g. -R 1000",
  "--amount": "the request count is -n here, e.g. -n 1000",
  "-X": "the method is -m here, e.g. -m POST",
  "-s": "wrk Lua scripts are not supported; use -m, -H, -b and --mix",
  "--script": "wrk Lua scripts are not supported; use -m, -H, -b and --mix",
  "--no-tui": "there is no TUI; use --no-live to drop the live line",
  "--http2": "use --h2 (HTTP/2 over TLS by ALPN, h2c on http://) and --streams N",
  "--max-concurrent-streams": "streams per connection are --streams N here (h2load -m)",
  "--arrival-rate": "the open-model rate is -R here, e.g. -R 100",
};
