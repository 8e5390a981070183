/**
 * @module
 * The targets of a running experiment: started when first needed, shared, stopped when done.
 */
import type { PlannedRun } from "../plan/types.ts";
import type { RunResult } from "../../results/mod.ts";
import { redactKnown } from "../../results/redact.ts";
import { secretsIn } from "../../results/secret_finder.ts";
import type { RunningTarget, TargetSpec } from "../../targets/spec.ts";
import { startTarget } from "../../targets/start.ts";
import { TargetError } from "../../targets/errors.ts";
import { readTextAt } from "../../system/read_capped.ts";
import { accepts } from "../../system/ports.ts";

/** A target could not be started or stopped answering during a run; exit code 3 at the CLI. */
export class TargetFailedError extends Error {
  override name = "TargetFailedError";
  /** The results.json that keeps the runs finished before the failure, once `runPlan` names it. */
  keptIn?: string;
  constructor(
    variant: string,
    message: string,
    logTail: string,
    secrets: readonly string[] = [],
    options?: ErrorOptions,
  ) {
    const tail = logTail ? `\n--- last log lines of ${variant} ---\n${logTail}` : "";
    super(redactKnown(message + tail, secrets), options);
  }
}

/** What a run needs of its target, whether loadlab started it or not. */
export interface RunTarget {
  /** Base URL without a trailing slash. */
  url: string;
  /** The started target (for telemetry); undefined for `url` targets. */
  running?: RunningTarget;
  info: NonNullable<RunResult["targetInfo"]>;
  stats(): Promise<Record<string, number>>;
  /** Set when this acquire started the target: the how-many-th start of its variant (from 1). */
  startedNow?: number;
}

interface Started {
  target: RunTarget;
  running: RunningTarget;
  logDir: string;
}

/** Starts, shares and stops the targets of one experiment. */
export class TargetPool {
  #live = new Map<string, Started>();
  #startsByVariant = new Map<string, number>();

  constructor(private readonly opts: { logDir: string; signal?: AbortSignal }) {}

  /** The target of `run`, started now when it is not up yet or the run wants a fresh one; null on Ctrl-C. */
  async acquire(run: PlannedRun): Promise<RunTarget | null> {
    if (run.target.kind === "url") {
      const url = run.target.url.replace(/\/+$/, "");
      return { url, info: { kind: "url" }, stats: () => Promise.resolve({}) };
    }
    const live = this.#live.get(run.targetKey);
    if (live && !run.freshTarget) return { ...live.target, startedNow: undefined };
    if (live) await this.#stop(run.targetKey);
    return await this.#start(run, run.target.spec);
  }

  async #start(run: PlannedRun, spec: TargetSpec): Promise<RunTarget | null> {
    const logDir = `${this.opts.logDir}/${run.variant.replace(/[^\w.-]/g, "_")}`;
    await Deno.mkdir(logDir, { recursive: true });
    // Ctrl-C aborts a start in progress, never a started target: the run under way finishes its requests.
    const starting = new AbortController();
    const abort = () => starting.abort();
    this.opts.signal?.addEventListener("abort", abort, { once: true });
    let running: RunningTarget;
    try {
      running = await startTarget(spec, { logDir, signal: starting.signal });
    } catch (err) {
      if (this.opts.signal?.aborted) return null;
      const why = err instanceof TargetError ? err.message : String(err);
      throw new TargetFailedError(
        run.variant,
        `target "${run.variant}" could not be started: ${why}`,
        await logTail(logDir),
        secretsIn(spec),
        { cause: err },
      );
    } finally {
      this.opts.signal?.removeEventListener("abort", abort);
    }
    const starts = (this.#startsByVariant.get(run.variant) ?? 0) + 1;
    this.#startsByVariant.set(run.variant, starts);
    const target: RunTarget = {
      url: running.url,
      running,
      info: running.info,
      stats: () => running.stats(),
      startedNow: starts,
    };
    this.#live.set(run.targetKey, { target, running, logDir });
    return target;
  }

  /** The error to throw when the target of `run` stopped accepting connections (it is stopped), else null. */
  async checkAlive(run: PlannedRun): Promise<TargetFailedError | null> {
    const live = this.#live.get(run.targetKey);
    if (!live || await accepts(live.target.url)) return null;
    const tail = await logTail(live.logDir);
    await this.#stop(run.targetKey);
    const died = `target "${run.variant}" died during run ${run.name}`;
    return new TargetFailedError(run.variant, died, tail, secretsIn(run.target));
  }

  /** Stops every started target whose key is not in `needed`. */
  async keepOnly(needed: Set<string>): Promise<void> {
    for (const key of [...this.#live.keys()]) if (!needed.has(key)) await this.#stop(key);
  }

  /** Stops everything; safe to call more than once. */
  async stopAll(): Promise<void> {
    await this.keepOnly(new Set());
  }

  async #stop(key: string): Promise<void> {
    const live = this.#live.get(key);
    this.#live.delete(key);
    await live?.running.stop().catch(() => {});
  }
}

/** How much of the end of a log is read for its last lines: a target may log gigabytes in a long run. */
const LOG_TAIL_BYTES = 64 * 1024;

/** The last lines of every log in `dir`, newest file last; "" when there are none. */
export async function logTail(dir: string, lines = 10): Promise<string> {
  const parts: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".log")) continue;
      using file = await Deno.open(`${dir}/${entry.name}`, { read: true });
      const size = (await file.stat()).size;
      // The last LOG_TAIL_BYTES (a character cut at the start is replaced).
      const start = Math.max(0, size - LOG_TAIL_BYTES);
      const text = (await readTextAt(file, start, Math.min(size, LOG_TAIL_BYTES))).trimEnd();
      if (text) parts.push(`[${entry.name}]\n${text.split("\n").slice(-lines).join("\n")}`);
    }
  } catch { /* no log folder: nothing to show */ }
  return parts.join("\n");
}
