/**
 * @module
 * Several loads against one target at once, as one run (`together:`, k6's scenarios): a script's `setup()`
 * and `teardown()` once, each load on its own workers from `startAfterMs`, results added into one. Each
 * load's sessions see `s.env.LOADLAB_PART`; the first abort stops all; progress, start and steering are the
 * first load's.
 */
import type { AttackConfig } from "./config.ts";
import type { RunResult } from "../results/mod.ts";
import { type AttackHooks, runLoaded } from "./attack.ts";
import { withScriptSetup } from "./script/host/hooks.ts";
import { mergeParts } from "../results/merge/shard_runs.ts";
import { newRunCounters, PART_ENV } from "./script/run_state.ts";
import { withReflectedSchema } from "./http/grpc/reflected_run.ts";

/** The common start's distance from now: time for every load's workers to start and load the script. */
const START_LEAD_MS = 1_000;

/** One load of the run with its start after the run's. */
export interface AttackPart {
  name: string;
  startAfterMs: number;
  config: AttackConfig;
}

/** Runs `parts` at once against their (one) target; one result named `hooks.name`. */
export async function runAttackParts(given: AttackPart[], hooks: AttackHooks = {}): Promise<RunResult> {
  // A gRPC load whose schema is the server's asks for it now, as a lone run does (runAttack).
  const parts = await Promise.all(
    given.map(async (p) => ({ ...p, config: await withReflectedSchema(p.config) })),
  );
  // Setup runs with the first's script: the loads of one run share it.
  return await withScriptSetup(parts[0].config, async (ready) => {
    const stop = new AbortController();
    const signal = hooks.signal ? AbortSignal.any([hooks.signal, stop.signal]) : stop.signal;
    const startAtEpochMs = Date.now() + START_LEAD_MS;
    const counters = newRunCounters();
    const runs = await Promise.all(parts.map(async (part, k) => {
      const script = ready.script === undefined ? undefined : {
        ...ready.script,
        env: { ...ready.script.env, [PART_ENV]: part.name },
      };
      const run = await runLoaded({
        ...part.config,
        ...(script ? { script } : {}),
        startAtEpochMs: startAtEpochMs + part.startAfterMs,
      }, {
        ...hooks,
        name: part.name,
        signal,
        counters,
        ...(k === 0 ? {} : { onProgress: undefined, onStart: undefined, steering: undefined }),
      });
      if (run.abortedBy) stop.abort();
      return run;
    }));
    return mergeParts(hooks.name ?? "attack", runs);
  }, hooks.signal);
}
