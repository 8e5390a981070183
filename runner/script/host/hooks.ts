/**
 * @module
 * A session script's `setup()` and `teardown()` around one run, in the script's own isolate: a failed setup
 * ends the run before any load (exit 2), a failed teardown is the result's `teardownError`.
 */
import type { AttackConfig } from "../../config.ts";
import type { RunResult } from "../../../results/mod.ts";
import { busyText, type HostOutcome, ScriptHost, ScriptStopped } from "./host.ts";
import { ScriptNames } from "../sessions/names.ts";
import { memoryLimitMbOf, memoryPassedText } from "../../worker/memory_limit.ts";
import { type HookRecord, withHookRequests } from "../../../results/hook_requests.ts";
import { conversionKindOf } from "../cache_dir.ts";
import { scriptEnv } from "../isolate_inputs.ts";

/** setup() did not give a value to run with: the message says why, naming the script's line. */
export class ScriptSetupError extends Error {
  override name = "ScriptSetupError";
}

/** What each script's setup() returned (as its isolate sent it), by the script's path: k6's `setup_data`. */
export const setupReturns = new Map<string, unknown>();

/** What a k6 script's setup() sent and how long it ran: k6 judges its thresholds from the test's start. */
export interface SetupSent {
  sent: readonly HookRecord[];
  ms: number;
  /** Set by the load: a threshold with abortOnFail crossed on setup()'s samples, so no load nor teardown. */
  crossed?: boolean;
}

/** Teardown's time after a stop: a stopped run ends within a second or two whatever teardown does. */
const STOPPED_TEARDOWN_MS = 1_000;

export async function withScriptSetup(
  config: AttackConfig,
  load: (config: AttackConfig, setup?: SetupSent) => Promise<RunResult>,
  signal?: AbortSignal,
): Promise<RunResult> {
  const script = config.script;
  if (script === undefined) return load(config);
  const env = Object.keys(script.env).length > 0 ? script.env : scriptEnv();
  const names = new ScriptNames(env);
  const limitMb = memoryLimitMbOf(config);
  // A script imported before (its check) with neither hook needs no isolate of its own before the load.
  const known = ScriptHost.importedBefore(script.path, limitMb);
  if (known && !known.setup && !known.teardown) return load({ ...config, script: { ...script, env } });
  const opened = await ScriptHost.open(script.path, script.setupTimeoutMs, limitMb, signal, script.routes);
  if (opened.host === null) throw setupFailure(opened.outcome, loading(opened.outcome), names);
  const { host, exports } = opened;
  // The requests setup() and teardown() sent: a k6 script's count in its run, as k6 counts them.
  const sent: HookRecord[] = [];
  try {
    let setupData: unknown = undefined;
    const startMs = performance.now();
    if (exports.setup) {
      const request = { type: "setup", limitMb, copies: config.workers + 1 } as const;
      const outcome = await host.call(request, script.setupTimeoutMs, signal);
      // As k6: a k6 script's setup() that threw or timed out ends the test, its summary of what it sent.
      if (
        (outcome.kind === "failed" || outcome.kind === "timeout") &&
        conversionKindOf(script.path) === "k6"
      ) {
        const setupError = setupFailure(outcome, "setup()", names).message;
        const run = await load({ ...config, script: { ...script, env, setupError } });
        const sent = outcome.kind === "failed" ? outcome.sent ?? [] : [];
        return { ...withHookRequests(run, sent), incomplete: true, setupError };
      }
      if (outcome.kind !== "done") throw setupFailure(outcome, "setup()", names);
      setupData = outcome.value;
      setupReturns.set(script.path, setupData);
      sent.push(...outcome.sent ?? []);
    }
    let hooksMs = performance.now() - startMs;
    // Without a teardown the isolate ends before the load, not sharing the process with it.
    if (!exports.teardown) host.close();
    const end = () =>
      exports.teardown ? teardown(host, setupData, script.teardownTimeoutMs, sent, signal) : null;
    const k6 = conversionKindOf(script.path) === "k6" && exports.setup;
    const setup: SetupSent | undefined = k6 ? { sent: [...sent], ms: hooksMs } : undefined;
    let run: RunResult;
    try {
      run = await load({ ...config, script: { ...script, setupData, env } }, setup);
    } catch (err) {
      // A failed load's own error wins over a teardown's.
      await end();
      throw err;
    }
    const teardownStartMs = performance.now();
    // As k6's: a test its thresholds stopped within setup() runs no teardown().
    const teardownError = setup?.crossed ? null : await end();
    hooksMs += performance.now() - teardownStartMs;
    run = { ...withHookRequests(run, sent), hooksMs: Math.round(hooksMs) };
    return teardownError === null ? run : { ...run, teardownError: names.shownPlaced(teardownError) };
  } finally {
    host.close();
  }
}

async function teardown(
  host: ScriptHost,
  data: unknown,
  timeoutMs: number,
  sent: HookRecord[],
  signal?: AbortSignal,
): Promise<string | null> {
  const limitMs = signal?.aborted ? Math.min(timeoutMs, STOPPED_TEARDOWN_MS) : timeoutMs;
  const outcome = await host.call({ type: "teardown", data }, limitMs, signal?.aborted ? undefined : signal);
  // What it sent before it threw counts too, as k6 counts every request sent.
  if (outcome.kind === "done" || outcome.kind === "failed") sent.push(...outcome.sent ?? []);
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

function setupFailure(outcome: HostOutcome, what: string, names: ScriptNames): Error {
  if (outcome.kind === "stopped") return new ScriptStopped(what);
  const text = `${what} ${endText(outcome, "setupTimeout")}`;
  return new ScriptSetupError(names.shownPlaced(text, "; no load was sent"));
}

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
