/**
 * @module
 * The words of a run that did not go as asked: aborted by a threshold, incomplete (stuck, exited or
 * memory-cut workers, a count out of time or work), or steered by hand, with how to change it. Pure.
 */
import type { RunResult } from "../schema/results.ts";
import { describeChange } from "../schema/steering.ts";
import { formatCount, formatDurationMs } from "../text_format.ts";

/** Changes listed in a steered run's flag; more are counted. */
const STEER_CHANGES_SHOWN = 3;

/** `steered: rate 400/s at 1.0s, pause at 2.1s` for changes made by hand; null for none or a replay. */
export function steeredLabel(run: RunResult): string | null {
  const live = (run.steering ?? []).filter((c) => c.by !== "replay");
  if (live.length === 0) return null;
  const shown = live.slice(0, STEER_CHANGES_SHOWN).map((c) =>
    `${describeChange(c)} at ${c.atSec.toFixed(1)}s`
  );
  const more = live.length > STEER_CHANGES_SHOWN ? ` and ${live.length - STEER_CHANGES_SHOWN} more` : "";
  return `steered: ${shown.join(", ")}${more}`;
}

/** "aborted at 12.0s by p99<100ms": when and by which threshold a run was stopped. */
export function abortedLabel(abortedBy: NonNullable<RunResult["abortedBy"]>): string {
  return `aborted at ${abortedBy.atSec.toFixed(1)}s by ${abortedBy.threshold}`;
}

/** "incomplete", naming the load workers loadlab ended and the script they ran. */
export function incompleteLabel(run: RunResult): string {
  const stuck = run.stuckWorkers ?? 0;
  const exited = run.exitedWorkers ?? 0;
  const script = (run.config as { script?: { path?: unknown } } | undefined)?.script?.path;
  const where = typeof script === "string" ? ` in ${script.slice(script.lastIndexOf("/") + 1)}` : "";
  const unrecorded = run.unrecordedLatencies ?? 0;
  const lost = (them: string) =>
    unrecorded > 0
      ? `; latencies of ${formatCount(unrecorded)} answer${unrecorded === 1 ? "" : "s"} lost with ${them}`
      : "";
  if (run.memoryCut) return memoryLabel(run.memoryCut, where) + lost("the workers");
  if (stuck === 0 && exited === 0) return run.endedBy ? endedByLabel(run) : "incomplete";
  const workers = (n: number) => `${n} worker${n === 1 ? "" : "s"}`;
  const parts = [
    ...(stuck > 0 ? [`${workers(stuck)} stuck`] : []),
    ...(exited > 0 ? [`${workers(exited)} exited (Deno.exit)`] : []),
  ];
  return `incomplete: ${parts.join(", ")}${where}${lost("it")}`;
}

/** Why loadlab ended its workers past its memory limit, and how to raise it. */
function memoryLabel(cut: NonNullable<RunResult["memoryCut"]>, where: string): string {
  const why = where !== ""
    ? "a session script that keeps what each iteration makes grows without bound"
    : "the load held more than that";
  return `incomplete: loadlab's memory passed ${formatCount(cut.limitMb)} MB (its limit; --max-memory-mb ` +
    `or maxMemoryMb to change)${where}: ${why}`;
}

/** Why a count ended short of its count: its max duration (as configured), or its sessions idle. */
function endedByLabel(run: RunResult): string {
  if (run.endedBy === "idle") {
    return "incomplete: idle, every session waiting on its own code (not a request, not s.sleep) past the timeout";
  }
  const maxMs = (run.config as { maxDurationMs?: unknown } | undefined)?.maxDurationMs;
  const bound = typeof maxMs === "number" ? ` (${formatDurationMs(maxMs)})` : "";
  return `incomplete: count not reached within its max duration${bound}`;
}
