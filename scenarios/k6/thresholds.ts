/**
 * @module
 * A k6 script's thresholds as loadlab's k6 form, and as rules judged after the run on k6's summary.
 */
import { k6Duration, type Problem } from "./duration.ts";
import { RESPONSE_TAGS, tagPairs } from "../../results/thresholds/selector.ts";

type Options = Record<string, unknown>;

/** A threshold judged after the run: `rate>0.9` on `checks`. */
export interface AfterRunRule {
  metric: string;
  rule: string;
  abortOnFail?: { delayMs: number };
}

const METRICS = new Set(["http_req_duration", "http_reqs", "http_req_failed"]);
/** k6's gRPC metrics and the HTTP metric whose numbers loadlab has for them. */
const GRPC_METRICS: Record<string, string> = { grpc_req_duration: "http_req_duration" };
/** k6's built-in metrics that k6's summary here has no numbers for. */
const NOT_MEASURED = new Set([
  "http_req_waiting",
  "http_req_connecting",
  "http_req_blocked",
  "http_req_sending",
  "http_req_receiving",
  "http_req_tls_handshaking",
]);
/** k6's metrics counted in the load's workers' results, known once the run is over (not sent live). */
const COUNTED_AFTER = new Set([
  "checks",
  "iterations",
  "iteration_duration",
  "vus",
  "vus_max",
  "data_sent",
  "data_received",
  "dropped_iterations",
]);
/** The iteration metrics judged by scenario (`iterations{scenario:api}`): each scenario's sessions kept. */
const BY_SCENARIO = new Set(["iterations", "iteration_duration"]);
/** The tags a threshold on `checks` selects by: a check's scenario, group path (`::api`) and name. */
const CHECK_TAGS = new Set(["scenario", "group", "check"]);
/** A rule on a metric judged after the run; a percentile is of 0 to 100 (`p(150)` read as a failed rule). */
const AFTER_RUN_RULE =
  /^(avg|min|max|med|p\((100(\.0+)?|\d{1,2}(\.\d+)?)\)|count|rate|value)\s*(<=|>=|==|!=|<|>)\s*-?\d+(\.\d+)?$/;

/** k6 thresholds (`{ metric{tags}: [expr | {threshold, abortOnFail, delayAbortEval}] }`) as loadlab's. */
export function thresholdsOf(
  thresholds: unknown,
  problem: Problem,
  afterRun: AfterRunRule[],
  origins: Array<Array<string | number>> = [],
): Array<string | Record<string, unknown>> {
  if (thresholds === undefined) return [];
  const out: Array<string | Record<string, unknown>> = [];
  for (const [key, list] of Object.entries(thresholds as Record<string, unknown>)) {
    const path = ["options", "thresholds", key];
    const m = /^([a-z_0-9]+)(\{(.*)\})?$/i.exec(key.trim());
    if (m === null || NOT_MEASURED.has(m[1])) {
      problem(path, `${m?.[1] ?? key}: loadlab's k6 summary has no numbers for this metric`);
      continue;
    }
    const metric = GRPC_METRICS[m[1]] ?? m[1];
    // A failure's own code (a refused connect's 1212), not a status's (1404), is judged after the run.
    const code = Number(tagPairs(m[3] ?? "").find(([k]) => k === "error_code")?.[1] ?? 1400);
    if (!METRICS.has(metric) || !(code >= 1400 && code < 1600)) {
      const tags = m[3] === undefined ? [] : tagPairs(m[3]).map(([k]) => k);
      if (m[2] === undefined) afterRun.push(...afterRunRules(m[1], list, path, problem));
      else if (m[1] === "checks" && tags.every((t) => CHECK_TAGS.has(t))) {
        afterRun.push(...afterRunRules(`checks${m[2]}`, list, path, problem));
      } else if (m[1] === "checks") {
        problem(
          path,
          `${key}: checks are judged by ${[...CHECK_TAGS].join(", ")} only, not yet by other tags`,
        );
      } else if (BY_SCENARIO.has(m[1]) && tags.every((t) => t === "scenario")) {
        afterRun.push(...afterRunRules(`${m[1]}${m[2]}`, list, path, problem));
      } else if (
        (m[1] === "data_sent" || m[1] === "data_received") && !tags.some((t) => RESPONSE_TAGS.has(t))
      ) {
        afterRun.push(...afterRunRules(`${m[1]}${m[2]}`, list, path, problem));
      } else if (COUNTED_AFTER.has(m[1])) {
        const by = BY_SCENARIO.has(m[1]) ? " but by scenario" : "";
        problem(
          path,
          `${key}: ${m[1]}'s threshold by tag is not judged yet${by} (judge ${m[1]} without tags)`,
        );
      } else afterRun.push(...afterRunRules(`${m[1]}${m[2]}`, list, path, problem));
      continue;
    }
    const selected = metric + (m[2] ?? "");
    for (const [k, item] of (Array.isArray(list) ? list : [list]).entries()) {
      // Each threshold out names the rule it came from, for problems found after the mapping.
      const origin = Array.isArray(list) ? [...path, k] : path;
      if (typeof item === "string") origins.push(origin), out.push(`${selected}: ${item}`);
      else if (item && typeof item === "object" && typeof (item as Options).threshold === "string") {
        const t = item as Options;
        const rule: Record<string, unknown> = { expr: `${selected}: ${t.threshold}` };
        if (t.abortOnFail !== undefined) rule.abortOnFail = t.abortOnFail;
        if (t.delayAbortEval !== undefined) {
          rule.delayAbortEval = k6Duration(t.delayAbortEval, [...path, k, "delayAbortEval"], problem);
        }
        origins.push(origin), out.push(rule);
      } else problem([...path, k], "a threshold is a string or { threshold, abortOnFail, delayAbortEval }");
    }
  }
  return out;
}

/** Thresholds judged after the run: `checks` takes `rate` rules. */
function afterRunRules(metric: string, list: unknown, path: Array<string | number>, problem: Problem) {
  const rules: AfterRunRule[] = [];
  for (const [k, item] of (Array.isArray(list) ? list : [list]).entries()) {
    const t = typeof item === "string" ? { threshold: item } : item as Options;
    const rule = typeof t?.threshold === "string" ? t.threshold.trim() : "";
    const checks = metric === "checks" || metric.startsWith("checks{");
    if (!AFTER_RUN_RULE.test(rule) || (checks && !rule.startsWith("rate"))) {
      problem(
        [...path, k],
        `${rule}: not a rule loadlab judges on ${metric} (e.g. rate>0.95, p(95)<200, count>10)`,
      );
    } else if (t.abortOnFail && (checks || COUNTED_AFTER.has(metric))) {
      problem(
        [...path, k],
        `abortOnFail on ${metric} is not honoured: ${metric} is counted in the run's results, judged after it`,
      );
    } else if (t.abortOnFail) {
      const delay = t.delayAbortEval === undefined
        ? "0ms"
        : k6Duration(t.delayAbortEval, [...path, k, "delayAbortEval"], problem);
      rules.push({ metric, rule, abortOnFail: { delayMs: parseInt(delay ?? "0", 10) } });
    } else rules.push({ metric, rule });
  }
  return rules;
}
