/**
 * @module
 * Statistics of the analysis and report: Student's t CIs, Welch's test, batch means, CI overlap, knees. Pure.
 */

/** A sample mean with the half-width of its 95% confidence interval (null when n < 2). */
export interface MeanCi {
  mean: number;
  ci95: number | null;
  n: number;
}

// Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom.
const T_975 = [
  12.706,
  4.303,
  3.182,
  2.776,
  2.571,
  2.447,
  2.365,
  2.306,
  2.262,
  2.228,
  2.201,
  2.179,
  2.16,
  2.145,
  2.131,
  2.12,
  2.11,
  2.101,
  2.093,
  2.086,
  2.08,
  2.074,
  2.069,
  2.064,
  2.06,
  2.056,
  2.052,
  2.048,
  2.045,
  2.042,
];

/** Student's t quantile for a 95% two-sided interval with `df` degrees of freedom. */
export function tQuantile95(df: number): number {
  if (df < 1) return Number.NaN;
  return df <= T_975.length ? T_975[df - 1] : 1.96;
}

/** Mean and 95% CI half-width of the finite values (NaN are ignored: a run without data). */
export function meanCi(values: number[]): MeanCi {
  const xs = values.filter(Number.isFinite);
  const n = xs.length;
  if (n === 0) return { mean: Number.NaN, ci95: null, n: 0 };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, ci95: null, n };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  return { mean, ci95: tQuantile95(n - 1) * Math.sqrt(variance / n), n };
}

/** The median of the finite values; NaN when there are none. */
export function median(values: ReadonlyArray<number | null>): number {
  const s = values.filter((v): v is number => Number.isFinite(v)).sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The mean of `values`; null when there are none. Inlined into the page. */
export function meanOf(values: readonly number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** Standard deviation of the finite values, the sample's (n - 1) unless asked; 0 below two values. */
export function stdev(values: number[], of: "sample" | "population" = "sample"): number {
  const xs = values.filter(Number.isFinite);
  if (xs.length < 2) return 0;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - (of === "sample" ? 1 : 0)));
}

/** The value at rank ceil(p% of n) of ascending `sorted` (nearest rank, as autocannon and ghz use). */
export function nearestRank(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Least-squares line y = slope x + intercept, r² and the slope's standard error; NaN slope on a flat x. */
export function fitLine(xs: readonly number[], ys: readonly number[]) {
  const n = xs.length, mx = meanOf(xs) ?? NaN, my = meanOf(ys) ?? NaN;
  let sxx = 0, sxy = 0, syy = 0, squares = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i] - mx) ** 2;
    sxy += (xs[i] - mx) * (ys[i] - my);
    syy += (ys[i] - my) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : NaN;
  for (let i = 0; i < n; i++) squares += (ys[i] - my - slope * (xs[i] - mx)) ** 2;
  const r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1;
  return { slope, intercept: my - slope * mx, r2, slopeError: Math.sqrt(squares / (n - 2) / sxx) };
}

/** `b - a` with its standard error and 95% half-width (Welch-Satterthwaite df, rounded down). */
export function welchDiff(a: MeanCi, b: MeanCi): { diff: number; se: number; ci95: number | null } {
  const diff = b.mean - a.mean;
  if (a.ci95 === null || b.ci95 === null) return { diff, se: Number.NaN, ci95: null };
  const va = (a.ci95 / tQuantile95(a.n - 1)) ** 2, vb = (b.ci95 / tQuantile95(b.n - 1)) ** 2;
  if (va + vb === 0) return { diff, se: 0, ci95: 0 };
  const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  return {
    diff,
    se: Math.sqrt(va + vb),
    ci95: tQuantile95(Math.max(1, Math.floor(df))) * Math.sqrt(va + vb),
  };
}

/** Standard errors under which a difference short of the bar is within noise; from it up, not judged. */
export const WITHIN_NOISE_MAX_SE = 1.96;

/** Standard errors a difference needs to be beyond noise under any rule (correlated samples). */
export const BEYOND_NOISE_MIN_SE = 5;

/** How many standard errors apart two means with 95% CIs are (half-widths from Student's t). */
export function standardErrorsApart(a: MeanCi, b: MeanCi): number {
  const { diff, se, ci95 } = welchDiff(a, b);
  if (ci95 === null) return Number.NaN;
  return se === 0 ? (diff === 0 ? 0 : Infinity) : Math.abs(diff) / se;
}

/** Relative change in percent from `before` to `after`; NaN when the baseline is zero or missing. */
export function changePct(before: number, after: number): number {
  if (!Number.isFinite(before) || !Number.isFinite(after) || before === 0) return Number.NaN;
  return ((after - before) / Math.abs(before)) * 100;
}

export interface IntervalSample {
  startMs: number;
  durationMs: number;
  value: number;
  /** Weight in its batch (requests); intervals without requests are skipped. */
  weight: number;
}

/** Means of consecutive intervals in batches of `batchMs` from `fromMs`; a short last batch is dropped. */
export function batchMeans(samples: IntervalSample[], fromMs: number, batchMs: number): number[] {
  const out: number[] = [];
  let sum = 0, weight = 0, spanMs = 0;
  for (const s of samples) {
    if (s.startMs < fromMs) continue;
    spanMs += s.durationMs;
    if (s.weight > 0 && Number.isFinite(s.value)) {
      sum += s.value * s.weight;
      weight += s.weight;
    }
    if (spanMs >= batchMs) {
      if (weight > 0) out.push(sum / weight);
      sum = weight = spanMs = 0;
    }
  }
  if (spanMs >= batchMs / 2 && weight > 0) out.push(sum / weight);
  return out;
}

/** Whether a before/after difference stands out from the run-to-run noise ("unknown": not judged). */
export type NoiseVerdict = "beyond-noise" | "within-noise" | "unknown";

/** The gap two means need for their 95% CIs not to overlap; null when a side has under three values. */
export function overlapMargin(a: MeanCi, b: MeanCi): number | null {
  return a.ci95 === null || b.ci95 === null || a.n < 3 || b.n < 3 ? null : a.ci95 + b.ci95;
}

/** One point of a sweep: swept value (a word on a categorical axis), req/s, p99, requested rate. */
export interface SweepPoint {
  x: number | string;
  rps: number;
  p99Ms: number;
  targetRps: number | null;
}

/** A rate sweep's point kept up when it achieved at least this share of the requested rate. */
export const KEPT_UP_SHARE = 0.95;

/** The sweep's knee: a rate sweep's highest sustained rate, else the Kneedle point; null when flat. */
export function findKnee(
  points: SweepPoint[],
  isRateSweep: boolean,
  bent: (index: number) => boolean = () => true,
): number | null {
  if (points.length < 3 || isCategorical(points.map((p) => p.x))) return null;
  if (isRateSweep) {
    const baseP99 = points[0].p99Ms;
    const healthy = points.map((p, i) =>
      (p.rps >= KEPT_UP_SHARE * (p.targetRps ?? (p.x as number)) && !(p.p99Ms > 3 * baseP99)) || !bent(i)
    );
    // A short point below a kept-up one is a dip (a stall), not where the target stopped keeping up.
    const last = healthy.lastIndexOf(true);
    return last >= 0 && last < points.length - 1 ? last : null;
  }
  const xs = points.map((p) => p.x as number), ys = points.map((p) => p.rps);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (x1 === x0 || y1 === y0 || flatShare(points) !== null) return null;
  const nx = xs.map((x) => (x - x0) / (x1 - x0)), ny = ys.map((y) => (y - y0) / (y1 - y0));
  const last = points.length - 1;
  // A knee levels off: above the chord of a rising curve, below that of a falling one.
  const rising = ny[last] >= ny[0] ? 1 : -1;
  let best = -1, bestDist = 0;
  for (let i = 1; i < last; i++) {
    const chord = ny[0] + (ny[last] - ny[0]) * ((nx[i] - nx[0]) / (nx[last] - nx[0]));
    const dist = (ny[i] - chord) * rising;
    if (dist > bestDist) [best, bestDist] = [i, dist];
  }
  return best > 0 && bestDist > 0.1 ? best : null;
}

const FLAT_REQ_SHARE = 0.1;

/** The spread of req/s over the highest (0.05 for 5%) when it is under `FLAT_REQ_SHARE`, else null. */
export function flatShare(points: SweepPoint[]): number | null {
  const ys = points.map((p) => p.rps);
  const [lo, hi] = [Math.min(...ys), Math.max(...ys)];
  const share = hi > 0 ? (hi - lo) / hi : 0;
  return share < FLAT_REQ_SHARE ? share : null;
}

/** Whether swept values are words (`load.protocol: [http1, h2]`): categories, with no order or knee. */
export function isCategorical(values: ReadonlyArray<number | string | null | undefined>): boolean {
  return values.some((v) => typeof v === "string");
}

/** Distinct sweep values as a reader expects them: numbers ascending, words in the file's order. */
export function orderedSweepValues<T extends number | string>(values: readonly T[]): T[] {
  const distinct = [...new Set(values)];
  const numbers = distinct.filter((v) => typeof v === "number").sort((a, b) => (a as number) - (b as number));
  return [...numbers, ...distinct.filter((v) => typeof v === "string")];
}

/** The axis a sweep curve runs along and its grid coordinate (a mixed grid runs along its numbers). */
export function curveAxes<P extends { parameter: string; value: number | string }>(
  run: { sweep?: P; sweep2?: P },
): { axis: P; at?: P } | undefined {
  const { sweep, sweep2 } = run;
  if (!sweep) return undefined;
  if (sweep2 && typeof sweep.value === "string" && typeof sweep2.value === "number") {
    return { axis: sweep2, at: sweep };
  }
  return sweep2 ? { axis: sweep, at: sweep2 } : { axis: sweep };
}

/** Rounds to 4 significant digits (keeps the embedded JSON small). */
export function round4(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(4));
}

/** Rounds to 3 significant digits, for per-interval series. */
export function round3(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(3));
}

/** Fewer intervals with responses than this give no stabilization verdict. */
export const MIN_STABILIZATION_INTERVALS = 8;
