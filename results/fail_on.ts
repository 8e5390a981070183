/**
 * @module
 * The grammar of a `--fail-on` rule (`failOn:`); results/baseline_gate.ts applies the rules.
 */
import { COMPARE_METRICS, higherIsBetter } from "./conclude/noise_samples.ts";
import { ConfigError } from "../validation/config_error.ts";
import { numberSpelling } from "../validation/terminal_text.ts";
import { splitSelector } from "./thresholds/selector.ts";

/** What a rule may name: the compared metrics, and the share of intended sends `dropped` (in pp). */
const GATE_METRICS = [...COMPARE_METRICS, "dropped"] as const;
export type GateMetric = typeof GATE_METRICS[number];

/** A parsed `--fail-on`: the metric, how far it may move the bad way, in percent or percentage points. */
export type FailOn = ReturnType<typeof parseFailOn>;

/** `p99 +10%`; `P99`, `p(99)` and a comparison read too (`p99 > +10%` and `p99 < +10%` say one rule). */
const FAIL_ON = /^\s*([A-Za-z0-9()]+)\s*(?:[<>]=?)?\s*([+-]?)\s*(\d+(?:\.\d+)?)\s*(%|pp|[A-Za-z]*)\s*$/;

/** Whether a change of `moved` (% or pp) is past rule `f`'s tolerance, in its metric's bad direction. */
export const pastTolerance = (f: FailOn, moved: number) =>
  higherIsBetter(f.metric) ? moved < f.tolerance : moved > f.tolerance;

/** Rules given as one (`"p99 +10%, rps -5%"`, as one environment variable holds them), each parsed. */
export const parseFailOnList = (text: string): FailOn[] =>
  text.split(/[,;](?![^{]*\})(?!\d)/).map((rule) => parseFailOn(rule.trim()));

/** Parses one `--fail-on` rule or throws `ConfigError`; `tolerance` points the bad way ("rps -5%": -5). */
export function parseFailOn(expression: string) {
  const where = `--fail-on "${expression}"`;
  const problem = (message: string) => new ConfigError([{ path: where, message }]);
  // A minus sign, dash or comparison as rich text writes it ("rps −5%", "p99 ≥ +5%") is the ASCII one.
  const ascii = expression.replace(/[\u2212\u2013]/g, "-").replace(/\u2265/g, ">=").replace(/\u2264/g, "<=");
  const { rest, selector, problem: badSelector } = splitSelector(ascii);
  if (badSelector) throw problem(badSelector);
  const m = FAIL_ON.exec(rest);
  const like = `write it like "p99 +10%", "rps -5%", "success -0.1pp" or "p99{name:GET /json} +10%"`;
  if (!rest.trim()) throw problem(`empty (an unset variable?); ${like}`);
  if (!m) throw problem(`not understood; ${numberSpelling(rest) || like}`);
  const [, name, sign, number, unit] = m;
  const metric = GATE_METRICS.find((x) => x === name.toLowerCase().replace(/^p\((\d+)\)$/, "p$1"));
  const known = GATE_METRICS.join(", ");
  if (!metric) {
    throw problem(
      `unknown metric "${name}"; use one of ${known} (errors: "success -1pp"; a script's own: --threshold)`,
    );
  }
  const worseSign = higherIsBetter(metric) ? "-" : "+";
  const wrong = unit !== "%" && unit !== "pp" && !sign && (unit !== "" || /[<>]/.test(rest))
    ? `an absolute limit is a threshold: --threshold "${expression}" on run or attack; --fail-on takes ` +
      `a change from the baseline (${like.slice(14)})`
    : unit !== "%" && unit !== "pp"
    ? `a tolerance is relative to the baseline: % (pp for success and dropped), not ${
      unit || "a bare number"
    }; ${like}`
    : !sign
    ? `not understood; ${like}: the sign says the bad direction`
    : sign !== worseSign
    ? `${metric} gets worse ${worseSign === "+" ? "upward" : "downward"}; write ${worseSign}${number}${unit}`
    : unit === "pp" && metric !== "success" && metric !== "dropped"
    ? `pp (percentage points) is for success and dropped only; write ${sign}${number}%`
    : unit === "%" && metric === "dropped"
    ? `dropped is a share of intended sends: write ${sign}${number}pp (percentage points)`
    : metric === "dropped" && selector
    ? "dropped is the whole run's (a dropped send has no endpoint yet): leave out the {...}"
    : sign === "-" && Number(number) >= 100
    ? `${metric} cannot fall by ${number}${unit} or more, so the rule never fires; write under 100`
    : undefined;
  if (wrong) throw problem(wrong);
  return {
    expression,
    metric,
    tolerance: Number(`${sign}${number}`),
    unit: unit as "%" | "pp",
    /** The tolerance as the gate's sentences show it ("+10%"). */
    limit: `${sign}${Number(number)}${unit}`,
    ...(selector ? { selector } : {}),
  };
}
