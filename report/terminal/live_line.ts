/**
 * @module
 * The live progress line, pure: elapsed, requests, rate, p99, errors, and the busiest endpoints by rate.
 */
import type { AttackProgress } from "../../results/mod.ts";
import { formatCount, formatDurationMs, formatNumber } from "../../results/text_format.ts";
import { columnsOf, fitColumns, visibleLine } from "../../validation/terminal_text.ts";

const LIVE_NAME_COLUMNS = 24;

/** One progress line for `\r` updates, fixed-width fields, within `columns` (`\r` redraws one row). */
export function renderLiveLine(s: AttackProgress, columns = Infinity): string {
  const elapsed = Number.isFinite(s.elapsedSec) ? s.elapsedSec.toFixed(1) : "-";
  const total = s.totalSec === null || !Number.isFinite(s.totalSec) ? "" : ` / ${s.totalSec.toFixed(0)}s`;
  const pct = s.totalSec !== null && s.totalSec > 0 && Number.isFinite(s.elapsedSec)
    ? ` ${Math.min(100, Math.floor((s.elapsedSec / s.totalSec) * 100))}%`.padStart(5)
    : "";
  const line = [
    `[${elapsed.padStart(6)}s${total}${pct}]`,
    `${formatCount(s.requests).padStart(11)} req`,
    `${formatNumber(s.rps, 0).padStart(9)} req/s`,
    // Before the first response the p99 has no sample: "-", not "0 ms".
    `p99 ${(s.requests > 0 ? formatDurationMs(s.p99Ms) : "-").padStart(10)}`,
    `${formatCount(s.errors).padStart(7)} errors`,
  ].join("  ");
  const busiest = (s.endpoints ?? []).map((e) =>
    `${fitColumns(visibleLine(e.name), LIVE_NAME_COLUMNS)} ${formatNumber(e.rps, 0)}/s`
  );
  const full = busiest.length > 0 ? `${line}  | ${busiest.join(", ")}` : line;
  return columnsOf(full) <= columns ? full : fitColumns(full, columns, "start");
}
