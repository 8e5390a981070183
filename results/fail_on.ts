/**
 * @module
 * The grammar of a `--fail-on` rule (`failOn:`): a compared metric, how far it may move its bad way
 * and optionally its endpoints; results/baseline_gate.ts applies the rules.
 */
import { COMPARE_METRICS, type CompareMetric } from "./conclude/noise_samples.ts";
import { ConfigError } from "../validation/config_error.ts";
import { splitSelector } from "./thresholds/selector.ts";

/** A parsed `--fail-on`: the metric, how far it may move the bad way, in percent or percentage points. */
export type FailOn = ReturnType<typeof parseFailOn>;

/** Whether lower values of a metric are better (latency) or higher (req/s, success). */
export const LOWER_IS_BETTER: Record<CompareMetric, boolean> = {
  p50: true,
  p99: true,
  rps: false,
  success: false,
};

const FAIL_ON = /^\s*([A-Za-z0-9]+)\s*([+-])\s*(\d+(?:\.\d+)?)\s*(%|pp)\s*$/;

/**
 * Parses one `--fail-on` expression; throws `ConfigError` naming the problem and the fix. Its `tolerance` is
 * signed, in the metric's bad direction (+10 for "p99 +10%", -5 for "rps -5%"); with a `selector`
 * (`p99{name:GET /json} +10%`) it is judged on the endpoints it selects (results/thresholds/selector.ts).
 */
export function parseFailOn(expression: string) {
  const where = `--fail-on "${expression}"`;
  const problem = (message: string) => new ConfigError([{ path: where, message }]);
  const { rest, selector, problem: badSelector } = splitSelector(expression);
  if (badSelector) throw problem(badSelector);
  const m = FAIL_ON.exec(rest);
  if (!m) {
    throw problem(
      `not understood; write it like "p99 +10%", "rps -5%", "success -0.1pp" or "p99{name:GET /json} +10%"`,
    );
  }
  const [, name, sign, number, unit] = m;
  const metric = COMPARE_METRICS.find((x) => x === name);
  if (!metric) throw problem(`unknown metric "${name}"; use one of ${COMPARE_METRICS.join(", ")}`);
  const worseSign = LOWER_IS_BETTER[metric] ? "+" : "-";
  if (sign !== worseSign) {
    throw problem(
      `${metric} gets worse ${worseSign === "+" ? "upward" : "downward"}; write ${worseSign}${number}${unit}`,
    );
  }
  if (unit === "pp" && metric !== "success") {
    throw problem(`pp (percentage points) is for success only; write ${sign}${number}%`);
  }
  return {
    expression,
    metric,
    tolerance: Number(`${sign}${number}`),
    unit: unit as "%" | "pp",
    ...(selector ? { selector } : {}),
  };
}
