/**
 * @module
 * The live progress line commands redraw on a terminal: elapsed, requests, rate, p99, errors. Pure.
 */
import type { AttackProgress } from "../../results/mod.ts";
import { formatCount, formatDurationMs, formatNumber } from "../../results/text_format.ts";

type LiveLineStats = AttackProgress;

/** One progress line for `\r` updates, fields padded to fixed widths. */
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
