/**
 * @module
 * The cold start of a target loadlab started: listening, ready, first 2xx, the first requests' latency.
 */
import type { RunResult } from "../results/mod.ts";
import type { AttackConfig } from "../runner/config.ts";
import type { RunningTarget } from "../targets/mod.ts";

/** Probe requests after a start when the experiment restarts its targets and does not say how many. */
const COLD_START_REQUESTS = 10;

/** How many probe requests follow each start: the experiment's `coldStartRequests`, else the default. */
export function coldStartRequests(exp: { restart: string; coldStartRequests?: number }): number {
  return exp.coldStartRequests ?? (exp.restart === "never" ? 0 : COLD_START_REQUESTS);
}
const PROBE_TIMEOUT_MS = 10_000;
/** All probes of one start together stop after this long: a target that hangs must not hold up the run. */
const PROBES_BUDGET_MS = 15_000;

type ColdStart = NonNullable<RunResult["coldStart"]>;

/** The path the probe asks for: the run's first GET request (of its mix or flows), else `/`. */
function probePath(config: AttackConfig): string {
  const steps = config.flows?.flatMap((f) => f.steps.flatMap((s) => "request" in s ? [s.request] : [])) ?? [];
  const first = [...steps, ...config.requestMix].find((r) => r.method === "GET");
  return first?.path ?? "/";
}

/** Sends the probe requests to a target just started, fewer when Ctrl-C comes or they take over 15 s. */
export async function measureColdStart(
  target: RunningTarget,
  start: number,
  config: AttackConfig,
  requests: number,
  signal?: AbortSignal,
): Promise<ColdStart | null> {
  const marks = target.coldStart;
  if (!marks) return null;
  const path = probePath(config);
  const client = clientFor(target, config);
  const firstRequestsMs: Array<number | null> = [];
  let first2xxMs: number | null = null;
  const deadline = performance.now() + PROBES_BUDGET_MS;
  try {
    for (let i = 0; i < requests && performance.now() < deadline && !signal?.aborted; i++) {
      const sentAt = performance.now();
      const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
      try {
        const res = await fetch(target.url + path, {
          client,
          signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
        });
        await res.arrayBuffer();
        const doneAt = performance.now();
        firstRequestsMs.push(round(doneAt - sentAt));
        if (res.ok && first2xxMs === null) first2xxMs = round(doneAt - marks.spawnAtMs);
      } catch {
        firstRequestsMs.push(null); // failed or timed out: a gap in the curve, not a fast point
      }
    }
  } finally {
    client?.close();
  }
  return {
    start,
    path,
    listeningMs: marks.listeningMs,
    readyMs: marks.readyMs,
    first2xxMs,
    firstRequestsMs,
    runStartMs: round(performance.now() - marks.spawnAtMs),
  };
}

/** An HTTP client trusting the target's CA (self-signed HTTPS), or skipping verification as the load does. */
function clientFor(target: RunningTarget, config: AttackConfig): Deno.HttpClient | undefined {
  if (!target.url.startsWith("https:")) return undefined;
  const caFile = config.tls?.caFile ?? target.caFile;
  if (caFile) return Deno.createHttpClient({ caCerts: [Deno.readTextFileSync(caFile)] });
  return undefined;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
