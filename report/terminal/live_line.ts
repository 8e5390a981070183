/**
 * @module
 * The live progress line that commands running load redraw in place on a terminal (cli/live.ts): elapsed
 * time, requests, rate, p99 and errors so far. It reads the live numbers, not a finished `RunResult`, so
 * it is kept apart from the end-of-run summary (report/terminal/summary.ts), which it shares only the number
 * formats with. Pure: no escape codes, no clock.
 */
import type { AttackProgress } from "../../results/mod.ts";
import { formatCount, formatDurationMs, formatNumber } from "../../results/text_format.ts";

/** Numbers for the live progress line. */
export type LiveLineStats = AttackProgress;

/**
 * One progress line for `\r` updates (no newline, no escape codes). Fields are padded to fixed widths so
 * successive lines rarely change length; the caller still clears the rest of the line when it can.
 */
export function renderLiveLine(s: LiveLineStats): string {
  const elapsed = Number.isFinite(s.elapsedSec) ? s.elapsedSec.toFixed(1) : "-";
  const total = s.totalSec === null || !Number.isFinite(s.totalSec) ? "" : ` / ${s.totalSec.toFixed(0)}s`;
  const pct = s.totalSec !== null && s.totalSec > 0 && Number.isFinite(s.elapsedSec)
    ? ` ${Math.min(100, Math.floor((s.elapsedSec / s.totalSec) * 100))}%`.padStart(5)
    : "";
  return [
    `[${elapsed.padStart(6)}s${total}${pct}]`,
    `${formatCount(s.requests).padStart(11)} req`,
    `${formatNumber(s.rps, 0).padStart(9)} req/s`,
    // Before the first response the p99 has no sample: "-", not "0 ms".
    `p99 ${(s.requests > 0 ? formatDurationMs(s.p99Ms) : "-").padStart(10)}`,
    `${formatCount(s.errors).padStart(7)} errors`,
  ].join("  ");
}
