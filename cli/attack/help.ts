/**
 * @module
 * The `loadlab attack --help` text: the load models, then the rows of the flag table (cli/attack_flags.ts).
 */
import { helpOf } from "../argv.ts";
import { ATTACK_TABLE } from "./flags.ts";

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

${helpOf(ATTACK_TABLE, { flagAt: 2, textAt: 27, shortColumn: true })}

Exit codes: 0 ok, 1 a threshold failed (only that), 2 bad usage (one line naming the problem and the
fix), 4 no response at all (any error kind, TLS included), 5 an output cannot be written (checked
before the load), 6 with --strict the run is flagged, 7 worse than --baseline past a --fail-on rule,
8 not judged: a --fail-on rule no pair could check (nothing paired with the baseline, only flagged
runs, or noise or the run's own waits for a core could explain the change; the reason says what would
settle it), 130 Ctrl-C, 143 SIGTERM (both stop gracefully and keep the partial results).

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
