/**
 * @module
 * A memory budget for script sessions, not a timing: a session waiting in `s.sleep` costs its own
 * variables and its connection, not a copy of loadlab's machinery. Two child processes
 * (tests/fixtures/script_crowd.ts) run 300 and 3,000 sessions of one GET and a long think time on one
 * worker against the built-in target, every session ending in its sleep; the peak RSS the 2,700 added
 * sessions cost, per session, stays within the budget. Measured here: 26 to 30 KB a session when each
 * session and sleep held listeners on the run's signal, a cookie jar and three async frames per
 * request; 14 to 15.5 KB with those gone; 3 to 13 KB (busy machine) once a session's end was no
 * promise and async frame of its own, its callbacks its user's, and a connection's kept response no
 * longer a 4 KiB buffer, its connection included. The run's end cuts the sleeps, so each child ends
 * within seconds of its 2.5 s load, longer on a busy machine (see `sleepingCrowd`).
 */
import { ok } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";

/** Peak RSS per added sleeping session, bytes. */
const BUDGET_PER_SESSION_BYTES = 16 * 1024;
const FEW = 300;
const MANY = 3_000;
const LOAD_MS = 2_500;
/** Past its load, a child's start and end: a child that takes longer kept its sessions (sleeps not cut). */
const CHILD_SPARE_MS = 30_000;

const crowd = new URL("./fixtures/script_crowd.ts", import.meta.url).pathname;
const script = new URL("./fixtures/scripts/get_then_sleep.ts", import.meta.url).pathname;

interface CrowdRun {
  requests: number;
  tookMs: number;
  peakRssBytes: number;
}

async function runCrowd(url: string, sessions: number, loadMs: number): Promise<CrowdRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    // The flags `deno task loadlab` runs with.
    args: [
      "run",
      "-A",
      "--v8-flags=--heap-growing-percent=50",
      crowd,
      url,
      script,
      `${sessions}`,
      `${loadMs}`,
    ],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(loadMs + CHILD_SPARE_MS),
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  ok(out.success, `${sessions} sessions: exit ${out.code}\n${text}${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(text.trim().split("\n").at(-1)!);
}

/**
 * A crowd whose run recorded a response for nearly every session (the budget is of sessions that slept):
 * on a busy machine the target may still be answering when the load ends, so the load doubles, up to 20 s.
 */
async function sleepingCrowd(url: string, sessions: number): Promise<CrowdRun> {
  for (let loadMs = LOAD_MS;; loadMs *= 2) {
    const run = await runCrowd(url, sessions, loadMs);
    if (run.requests >= 0.9 * sessions || loadMs >= 8 * LOAD_MS) return run;
  }
}

Deno.test("3,000 script sessions waiting in s.sleep fit the memory budget, and the run's end cuts their sleeps", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    // At once: each child's peak is its own process's.
    const [few, many] = await Promise.all([sleepingCrowd(target.url, FEW), sleepingCrowd(target.url, MANY)]);
    const perSession = (many.peakRssBytes - few.peakRssBytes) / (MANY - FEW);
    console.log(
      `peak RSS ${(few.peakRssBytes / 1e6).toFixed(1)} MB at ${FEW} sessions, ` +
        `${(many.peakRssBytes / 1e6).toFixed(1)} MB at ${MANY}: ${
          (perSession / 1024).toFixed(1)
        } KB a session; ` +
        `runs took ${few.tookMs} and ${many.tookMs} ms`,
    );
    ok(
      few.requests >= 0.9 * FEW && many.requests >= 0.9 * MANY,
      `responses ${few.requests}/${FEW}, ${many.requests}/${MANY}`,
    );
    ok(
      perSession <= BUDGET_PER_SESSION_BYTES,
      `${(perSession / 1024).toFixed(1)} KB a sleeping session (budget ${
        BUDGET_PER_SESSION_BYTES / 1024
      } KB)`,
    );
  } finally {
    await target.stop();
  }
});
