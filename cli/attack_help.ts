/**
 * @module
 * The `loadlab attack --help` text; a test checks that it documents every flag of the table.
 */
import { baselineHelp } from "./baseline_flags.ts";
import { dashboardHelp } from "./dashboard_flags.ts";

/** Full help for `loadlab attack`. */
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

Load
  -c, --concurrency N      connections to keep busy (closed, throughput, count)     [10]
      --connections N      the same; on a grpc:// URL without --streams, ghz's: -c calls
                           in flight dealt over N connections in turn (N 1 there)
  -d, --duration D         measured duration: 500ms, 10s, 1.5s, 1m, 1m30s, 2h; a bare
                           number is seconds; at most 7 days                         [10s]
                           (with -n an optional upper bound; -n alone runs to the count)
  -n, --requests N         send exactly N requests (count model; ghz's --total too)
      --max-duration D     a count without -d stops here, flagged incomplete (k6's
                           maxDuration; past the last send with -R)                   [10m]
  -R, --rate N             requests per second, at most 10000000 (1e7) for the whole load
      --ramp-to N          ramp the rate linearly from -R to N over the duration (rate model)
      --phases LIST        arrival-rate phases, Artillery-like: DURATION@RATE or
                           DURATION@FROM->TO, comma-separated; a rate of 0 is a pause, e.g.
                           --phases "30s@10,60s@20,60s@100,30s@50->200"  (replaces -R and -d)
      --stages LIST        ramping connections, k6's stages: DURATION:TARGET, comma-separated;
                           from 0, linear to each target, e.g. --stages 30s:50,1m:200,30s:0
                           (replaces -c and -d; at most 1000 stages, 1000000 connections)
      --ramp-up R/s        Locust's spawn rate: add R connections a second up to -c, then hold
                           them for the rest of -d, e.g. -c 100 --ramp-up 10/s -d 1m
      --model M            connections | rate | throughput | count | ramping-connections
      --co                 same as --model throughput (coordinated-omission corrected)
      --max-connections N  cap on connections the open models open         [1000, or less if
                           the open-file limit is lower]
      --pre-connect N      open models: connections opened before the first send   [Little's
                           law: first rate x connect round trip x 2, at least 4 per worker]
                           (0: none; no request is sent to size it, only connects)
  -p, --pipelining N       requests in flight per connection (HTTP/1.1 pipelining)   [1]
      --transport T        auto | deno | epoll | io_uring (epoll: Linux fast path      [auto]
                           over libc epoll through FFI, https: via OpenSSL; auto:
                           epoll where it can run, except verified https:
                           (Deno.startTls), else deno with the reason in results,
                           and io_uring for a closed ws:// message run; io_uring:
                           plain-TCP closed models, else epoll)
      --source-addresses L bind connections to these local addresses in turn, past the
                           ~14k connections one address opens quickly per destination: a list
                           or IPv4 ranges, e.g. 127.0.0.1-127.0.0.4 (epoll transport)
      --protocol P         http1 | h2 | h2c | auto (h2: HTTP/2 over TLS by ALPN,    [http1]
                           h2c with prior knowledge on http://; auto: ALPN's choice)
      --h2                 same as --protocol h2
      --streams N          HTTP/2: concurrent streams per connection (h2load -m)    [1]
      --h2-window BYTES    HTTP/2: receive windows advertised              [16777216]
WebSocket (a ws:// or wss:// URL; -H headers go on the handshake; docs/WEBSOCKET.md):
      --ws-message TEXT    a message to send (repeatable: sent in turn)           [hello]
      --ws-binary          messages are base64 of binary payloads
      --ws-fragment N      cut each message into frames of at most N bytes   [one frame]
      --ws-match RULE      which server message answers a send: echo (the next one),
                           nth:N, or json:FIELD=VALUE                              [echo]
      --ws-protocol P      a subprotocol to offer (repeatable)
      --ws-per-connection N  connection storm: each connection sends N messages, then
                           closes (1000); with -R: connections opened at that rate
      --ws-ping D          hold: no messages; each connection pings after D idle and
                           times the pong
      --ws-max-message N   cap of a server message; a bigger one is ws-too-big  [1048576]
      --ws-max-buffered N  what a worker's connections may hold together in messages
                           in progress; past it one is ws-too-big             [268435456]
      --ws-deflate         offer permessage-deflate; a server that agrees gets and
                           may send compressed messages (the cap: inflated size)
gRPC (a grpc:// or grpcs:// URL: h2c or h2; -b the message as JSON, -H metadata; docs/GRPC.md):
      --call M             the method, pkg.Service/Method (or pkg.Service.Method)
      --proto FILE         the schema as a .proto file
  -i, --import-path DIR    where its imports are (repeatable; --import-paths A,B too)
      --metadata JSON      ghz's metadata object, as -H lines (-m JSON on a grpc:// URL)
      --protoset FILE      the schema as a FileDescriptorSet (protoc --descriptor_set_out)
      --reflect            the schema from the server's reflection service
      --max-receive N      cap of a received message; a bigger one is grpc-too-big [4194304]
      --max-send N         cap of a sent message; a bigger one is refused before the load [4194304]
                           (a filled template's: counted grpc RESOURCE_EXHAUSTED, not sent)
      --ghz-config FILE    a ghz config (JSON, .toml or .yaml) read as the flags it stands for
  -O, --format F           ghz's report on stdout (or its -o file, then no results.json):
                           summary, json or pretty (docs/GRPC.md)
      --compress gzip      send every message gzip-compressed (and accept gzip replies)
  -w, --workers N          worker isolates sharing the load (like wrk -t; --cpus)     [1]
      --max-memory-mb N    loadlab's own memory (RSS) past which its workers are ended
                           and the run flagged incomplete, naming memory (default: half
                           the memory free at the start, 1024-2048 MB, more per worker)
      --warmup D           run this long first and leave it out of the statistics    [0]
                           (the target's warm-up: its requests reach the target)
      --no-generator-warmup
                           skip loadlab's own warm-up before the start (a burst of up
                           to ~250 ms, ~550 over ws, against an in-process sink, never the
                           target)
      --timeout D          per-request timeout; late responses count as timeouts     [10s]
      --max-header-bytes N cap of a response head; a bigger one is a parse error and  [65536]
                           closes its connection

Requests
  -m, --method M           HTTP method                                               [GET]
  -H, --header "N: v"      add a header to every request; repeatable
  -T, --content-type T     shorthand for -H "Content-Type: T"
  -b, --body TEXT          request body (--data too)
  -D, --body-file PATH     request body read from a regular file of at most 16 MiB (bytes as
                           they are)
      --mix "M /path [W]"  a request mix instead of the URL's path; repeatable. Each entry is
                           METHOD, a path relative to the URL's origin, and an optional weight
                           (default 1): --mix "GET /json 3" --mix "POST /user 1" sends 3 GETs
                           for each POST. -H goes on every entry; -b/--body-file on every entry
                           whose method is not GET or HEAD. Each entry is an endpoint measured
                           apart, named "METHOD /path" (results, report, thresholds, metrics out)
      --data-file FILE     rows filling {{ name }} placeholders in the URL's path and query, -H
                           values and -b (a gRPC message and its metadata too), one row per
                           request: a CSV with a header row, a JSON array of objects or NDJSON
                           (.ndjson, .jsonl), read as an experiment's data: source. A name no
                           column has is refused; {{ $randomNumber(1,9) }} and
                           {{ $randomString(8) }} need no file (docs/EXPERIMENTS.md)
      --data-order O       sequential, random, or unique (each row once across workers and
                           segments)                                           [sequential]
      --data-when-done W   when a worker's rows run out: wrap, or stop (unique's only one)
      --data-fields A,B    a CSV without a header row: its column names (--data-skip-header
                           when its first row is a header all the same)

TLS (https: URLs; docs/TLS.md)
  -k, --insecure           skip certificate verification (printed as a warning, recorded
                           in results; uses node:tls, as Deno.startTls always verifies)
      --cacert FILE        PEM bundle of extra trusted CAs (e.g. a target's tls-ca.pem)
      --cert FILE          client certificate (PEM), with --key FILE (unencrypted PEM key)
      --key FILE
      --sni NAME           server name sent and verified instead of the URL's host
      --connect-to H:P     dial H:P instead of the URL's host and port (http: too)
      --tls-resume on|off  resume the last TLS session on a worker's new connections (default
                           on, as browsers do; epoll transport only: the deno transport cannot,
                           and its results say so); results count the handshakes resumed
  Handshake time is its own measurement (tlsMs beside connectTimeMs); verification
  failures count as tls errors named expired, unknown-ca or hostname.

Scale-out (docs/scale-out.md)
      --segment I/N        generate segment I of N (from 0, like JOB_COMPLETION_INDEX): open
                           models send every Nth request of the schedule, closed ones an even
                           share of -c and -n; merge the shards with loadlab merge
      --start-at TIME      start the schedule (warm-up included) at this RFC 3339 instant,
                           e.g. 2026-11-21T17:00:00Z, so every segment's intervals line up;
                           more than 1 s in the past is refused

Output
      --json               print one JSON object (rps, latencyMs, statusCodes, errors, ...) on
                           stdout instead of the summary
  -o, --out FILE           write results.json (loadlab.results/v3; --output too)
      --out KIND=URL       stream metrics per interval while the load runs (repeatable):
                           prometheus-remote-write=URL (native histograms), otlp=URL (OTLP/HTTP
                           protobuf) or otlp-json=URL; never slows the load, drops counted
                           (docs/METRICS_OUT.md)
      --report FILE        write a self-contained HTML report
      --output-bench FILE  github-action-benchmark JSON: latency to FILE (customSmallerIsBetter),
                           req/s and success to FILE's .bigger.json (customBiggerIsBetter); with
                           $GITHUB_STEP_SUMMARY set, a markdown summary is appended there
      --summary FILE       write a markdown summary (CI step summaries): the run, its verdict,
                           the thresholds, as "run --summary" writes it
      --junit FILE         write JUnit XML: one test case per threshold (and with --strict one
                           "run verdict" case, failing when the run is flagged)
      --log FILE           stream every request to a CSV: code;startUs;endUs;connection
      --interval D         statistics interval for the time series                  [250ms]
      --interval-histograms keep|none
                           keep each interval's latency histogram in results.json   [keep]
                           (exact re-analysis; none makes the file smaller)
      --threshold EXPR     fail (exit 1) unless EXPR holds, e.g. "p99<200ms"; repeatable. On
                           endpoints: "p99{name:GET /json}<200ms", {method:POST}, a tag, or k6's
                           "http_req_duration{name:GET /json}: p(99)<200"; a selector matching no
                           endpoint is exit 2 naming them
      --abort-on-fail      judge each --threshold while the load runs and stop it (exit 1) at the
                           first failure, as k6's abortOnFail; the results say which and when
      --delay-abort-eval D not before D of measured time, e.g. 10s (k6's delayAbortEval)     [0s]
      --strict             exit 6 when the run is flagged (generator-bound, server-bound, dropped
                           sends, lost, unanswered or failed requests, server errors, no 2xx/3xx,
                           nothing measured, incomplete, warm-up not reached; the list in
                           docs/REFERENCE.md): CI never gates on untrusted numbers
${baselineHelp(6, 27)}
  -q, --quiet              print nothing but errors (and --json output)
      --no-live            no live progress line
      --no-redact          keep secrets in results, report and printed output (by default URL
                           passwords, Authorization/Cookie/*token*/*key*/*secret*/*signature*
                           headers and such query parameters become [redacted N chars sha256:...])
${dashboardHelp(6, 27)}
  -h, --help               this help

Exit codes: 0 ok, 1 a threshold failed (only that), 2 bad usage (one line naming the problem and the
fix), 4 no response at all (any error kind, TLS included), 5 an output cannot be written (checked
before the load), 6 with --strict the run is flagged, 7 worse than --baseline past a --fail-on rule,
8 a --fail-on rule checked no run (nothing paired with the baseline, or only flagged runs), 130 Ctrl-C,
143 SIGTERM (both stop gracefully and keep the partial results).

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
