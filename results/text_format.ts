/**
 * @module
 * Number formatting for the terminal: NaN and Infinity print "-", a number too large in exponent form.
 */

/** Whether `n` is too large to print digit by digit (1e15 on). Inlined into the page: no module scope. */
export function isHuge(n: number): boolean {
  return Math.abs(n) >= 1e15;
}

/** `n` as `1.23e+18`, times 10 to the `shift` (a percent without multiplying to Infinity). */
export function formatExponent(n: number, shift = 0): string {
  if (!Number.isFinite(n)) return "-";
  const [mantissa, exponent] = n.toExponential(2).split("e");
  const power = Number(exponent) + shift;
  return `${mantissa}e${power < 0 ? "-" : "+"}${Math.abs(power)}`;
}

/** "850 µs", "12.34 ms", "1.50 s", "2m 05s"; "-" for non-finite input. */
export function formatDurationMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  if (isHuge(ms)) return `${formatExponent(ms)} ms`;
  const abs = Math.abs(ms);
  if (abs === 0) return "0 ms";
  if (abs < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (abs < 1000) return `${ms.toFixed(2)} ms`;
  if (abs < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const totalSec = Math.round(abs / 1000);
  const sign = ms < 0 ? "-" : "";
  return `${sign}${Math.floor(totalSec / 60)}m ${String(totalSec % 60).padStart(2, "0")}s`;
}

/** A time left as the terminal and the live page show it: "12 s" (at least 1), "1m 05s". */
export function formatEta(ms: number): string {
  return ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : formatDurationMs(ms);
}

/** "512 B", "1.50 KiB", "3.20 MiB" (binary units, like oha); "-" for non-finite input. Page-inlined. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return "-";
  const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = n;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (isHuge(value)) return `${formatExponent(n)} B`;
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(2)} ${BYTE_UNITS[unit]}`;
}

/** Integer with thousands separators ("12,345"); "-" for non-finite input. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return "-";
  if (isHuge(n)) return formatExponent(n);
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A rate or other float with a fixed number of decimals and separators ("4,567.89"). */
export function formatNumber(n: number, decimals = 2): string {
  if (!Number.isFinite(n)) return "-";
  if (isHuge(n)) return formatExponent(n);
  const [whole, fraction] = Math.abs(n).toFixed(decimals).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (n < 0 ? "-" : "") + (fraction === undefined ? grouped : `${grouped}.${fraction}`);
}

/** `n` to `digits` significant digits without trailing zeros: 1234.5 -> "1230", 0.01234 -> "0.0123". */
export function formatSignificant(n: number, digits = 3): string {
  return String(Number(n.toPrecision(digits)));
}

/** A number for a sentence: whole with separators, one decimal below 10 ("0.8", "176", "12,400"). */
export function formatRounded(n: number): string {
  return n < 10 ? n.toFixed(1) : formatCount(n);
}

/** `n.toFixed(decimals)` without separators ("1234.50"), for values a unit follows; "-" when not finite. */
export function formatFixed(n: number, decimals: number): string {
  if (!Number.isFinite(n)) return "-";
  return isHuge(n) ? formatExponent(n) : n.toFixed(decimals);
}

/** `formatFixed` with the tables' dash "–" when not a finite number. Page-inlined. */
export function fixedOrDash(n: number | null | undefined, decimals: number): string {
  return typeof n === "number" && Number.isFinite(n) ? formatFixed(n, decimals) : "–";
}

/** `formatCount` with the tables' dash "–" when not finite. */
export function countOrDash(n: number): string {
  return Number.isFinite(n) ? formatCount(n) : "–";
}

/** A 0..1 share as "99.50%"; "-" for non-finite input. */
export function formatPercent(share: number, decimals = 2): string {
  if (!Number.isFinite(share)) return "-";
  if (isHuge(share * 100)) return `${formatExponent(share, 2)}%`;
  return `${(share * 100).toFixed(decimals)}%`;
}

/** A percentile label without trailing zeros: 50 -> "50%", 99.9 -> "99.9%", 2.5 -> "2.5%". */
export function formatPercentile(p: number): string {
  if (!Number.isFinite(p)) return "-";
  if (isHuge(p)) return `${formatExponent(p)}%`;
  return `${Number(p.toFixed(4))}%`;
}

/** A run's HTTP version for names and tables: "" for HTTP/1.1, else e.g. "h2, 10 streams/conn". */
export function protocolTag(run: { protocol?: string; streams?: number }): string {
  if (run.protocol === undefined || run.protocol === "http1") return "";
  const streams = run.streams ?? 1;
  return `${run.protocol}, ${streams} stream${streams === 1 ? "" : "s"}/conn`;
}
