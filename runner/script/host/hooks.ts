/**
 * @module
 * A session script's `setup()` and `teardown()` around one run (k6's lifecycle): setup once before the
 * workers start, its return value handed to every session (`s.setup`, so it must be structured-
 * cloneable: it crosses into the worker isolates), teardown once after the load with that value, also
 * when the load failed. Both run in the script's own isolate (host.ts) and reach the target with
 * `fetch`; their requests are not measured. Setup ends the run before any load when it throws, returns
 * what cannot be cloned, passes its time limit (`setupTimeout`, 60 s unless set) or loadlab's memory limit,
 * or ends its isolate (`Deno.exit`): a `ScriptSetupError` naming why (exit 2); a signal during it is
 * `ScriptSetupStopped`. Teardown cannot lose the run: its throw, time limit (`teardownTimeout`), memory or
 * exit is the result's `teardownError`, said after the results are written; after a stop it has at most
 * `STOPPED_TEARDOWN_MS`.
 */
import type { AttackConfig } from "../../config.ts";
import type { RunResult } from "../../../results/mod.ts";
import { busyText, type HostOutcome, ScriptHost } from "./host.ts";
import { ScriptNames } from "../sessions/names.ts";
import { memoryLimitMbOf, memoryPassedText } from "../../worker/memory_limit.ts";

/** setup() did not give a value to run with: the message says why, naming the script's line. */
export class ScriptSetupError extends Error {
  override name = "ScriptSetupError";
}

/** A stop (Ctrl-C, SIGTERM) came while setup() ran: no load was sent. */
export class ScriptSetupStopped extends Error {
  override name = "ScriptSetupStopped";
  /** What ran when the stop came: `setup()`, or loading the script. */
  constructor(readonly phase: string) {
    super(`stopped during ${phase}: no load was sent`);
  }
}

/** Teardown's time after a stop: a stopped run ends within a second or two whatever teardown does. */
export const STOPPED_TEARDOWN_MS = 1_000;

/** Runs `load` with `config.script.setupData` set from the script's setup(), then its teardown(). */
export async function withScriptSetup(
  config: AttackConfig,
  load: (config: AttackConfig) => Promise<RunResult>,
  signal?: AbortSignal,
): Promise<RunResult> {
  const script = config.script;
  if (script === undefined) return load(config);
  // Sessions read loadlab's environment as `s.env` (k6's __ENV) unless the config gives one; its secrets
  // are redacted from what setup and teardown say, as from the sessions' names (sessions/names.ts).
  const env = Object.keys(script.env).length > 0 ? script.env : Deno.env.toObject();
  const names = new ScriptNames(env);
  const opened = await ScriptHost.open(
    script.path,
    script.setupTimeoutMs,
    memoryLimitMbOf(config),
    signal,
    script.routes,
  );
  if (opened.host === null) throw setupFailure(opened.outcome, loading(opened.outcome), names);
  const { host, exports } = opened;
  try {
    let setupData: unknown = undefined;
    if (exports.setup) {
      // Its value is copied to the main isolate and to each load worker.
      const request = {
        type: "setup",
        limitMb: memoryLimitMbOf(config),
        copies: config.workers + 1,
      } as const;
      const outcome = await host.call(request, script.setupTimeoutMs, signal);
      if (outcome.kind !== "done") throw setupFailure(outcome, "setup()", names);
      setupData = outcome.value;
    }
    // Without a teardown the script's isolate has nothing left to do: ended before the load, so the
    // load does not share the process with a second copy of the script's module graph.
    if (!exports.teardown) host.close();
    const end = () => exports.teardown ? teardown(host, setupData, script.teardownTimeoutMs, signal) : null;
    let run: RunResult;
    try {
      run = await load({ ...config, script: { ...script, setupData, env } });
    } catch (err) {
      // A failed load's own error wins over a teardown's.
      await end();
      throw err;
    }
    const teardownError = await end();
    return teardownError === null ? run : { ...run, teardownError: names.shownPlaced(teardownError) };
  } finally {
    host.close();
  }
}

/** Runs teardown(data): null when it ended, else what went wrong in one line. */
async function teardown(
  host: ScriptHost,
  data: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string | null> {
  // After a stop the run has already been asked to end: teardown gets a moment, not its full limit.
  const limitMs = signal?.aborted ? Math.min(timeoutMs, STOPPED_TEARDOWN_MS) : timeoutMs;
  const outcome = await host.call({ type: "teardown", data }, limitMs, signal?.aborted ? undefined : signal);
  if (outcome.kind === "done") return null;
  if (outcome.kind === "timeout" && signal?.aborted) {
    return `teardown() was cut ${limitMs} ms after the stop, before it ended`;
  }
  return `teardown() ${endText(outcome, "teardownTimeout")}`;
}

/** The step that imports the script, named for how it ended: past the memory limit, its top level did it. */
function loading(outcome: HostOutcome): string {
  return outcome.kind === "memory" || outcome.kind === "busy"
    ? "the script's top level"
    : "loading the script";
}

/** The error that ends a run whose setup (or the script's loading) did not give a value. */
function setupFailure(outcome: HostOutcome, what: string, names: ScriptNames): Error {
  if (outcome.kind === "stopped") return new ScriptSetupStopped(what);
  return new ScriptSetupError(
    names.shownPlaced(`${what} ${endText(outcome, "setupTimeout")}`, "; no load was sent"),
  );
}

/** How a step in the script's isolate ended, after its name ("failed: ..."); `limit` names its time limit. */
function endText(outcome: HostOutcome, limit: string): string {
  switch (outcome.kind) {
    case "failed":
      return `failed: ${outcome.message}`;
    case "timeout":
      return `did not end within ${outcome.timeoutMs / 1000} s (${limit} sets the limit)`;
    case "exited":
      return "ended the script's isolate (Deno.exit or process.exit) before it returned";
    case "stopped":
      return "was stopped before it ended";
    case "memory":
      return memoryPassedText(outcome.limitMb);
    case "busy":
      return busyText(outcome.busyMs).replace("its top level ", "");
    default:
      return "ended";
  }
}
