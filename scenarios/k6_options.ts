/**
 * @module
 * A k6 script's `options` as the experiment `loadlab run script.js` runs: the load as one of loadlab's
 * models (`vus`+`duration` and `constant-vus` are `connections`, `stages` and `ramping-vus` ramp them,
 * `iterations` and the iteration executors are `count` loads of sessions, the arrival-rate executors are
 * `rate` phases), thresholds in k6's syntax as loadlab's k6 form (`http_req_duration{name:x}: p(95)<500`),
 * `noConnectionReuse` and `insecureSkipTLSVerify` as the load's connection and TLS. An option loadlab
 * cannot honour is a problem at its path (`options.scenarios.a.startTime`), never dropped. Pure: options
 * in, experiment fields or problems out.
 */
import { formatPath, type Issue } from "../validation/mod.ts";

type Options = Record<string, unknown>;

/** A threshold judged after the run: `rate>0.9` on `checks`. */
export interface AfterRunRule {
  metric: string;
  rule: string;
}

/** What the options become: the load, its extra fields and the thresholds. */
export interface K6Experiment {
  load: Record<string, unknown>;
  thresholds: Array<string | Record<string, unknown>>;
  /**
   * Thresholds judged after the run on k6's summary (cli/k6_summary.ts): on `checks`, on the custom
   * metrics (`Trend`, `Counter`, `Rate`, `Gauge`) and on `iterations`, `iteration_duration`, `vus`, `data_*`.
   */
  afterRun: AfterRunRule[];
}

/**
 * Options k6 uses only outside a local run (cloud), that only bound what loadlab does not do (batch), or
 * that the runtime of runner/script/k6/ reads from the script itself (bodies, redirects, user agent).
 */
const HONOURED = new Set([
  "ext",
  "cloud",
  "batch",
  "batchPerHost",
  "summaryTrendStats",
  "summaryTimeUnit",
  "discardResponseBodies",
  "maxRedirects",
  "userAgent",
  "noCookiesReset",
]);
const LOAD_KEYS = new Set(["vus", "duration", "iterations", "stages", "scenarios"]);

/** The experiment fields of k6 `options` (after the CLI's overrides), or the problems at their paths. */
export function k6Experiment(
  options: Options,
): { ok: true; value: K6Experiment } | { ok: false; issues: Issue[] } {
  const issues: Issue[] = [];
  const problem = (path: Array<string | number>, message: string) =>
    issues.push({ path: formatPath(path), message });
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (LOAD_KEYS.has(key) || HONOURED.has(key) || key === "thresholds") continue;
    if (key === "noConnectionReuse") extra.connection = value ? "per-arrival" : "keep-alive";
    else if (key === "insecureSkipTLSVerify") extra.tls = { insecure: Boolean(value) };
    else problem(["options", key], `${key} is not honoured by loadlab's k6 runtime; remove it to run`);
  }
  const load = loadOf(options, problem);
  const afterRun: AfterRunRule[] = [];
  const thresholds = thresholdsOf(options.thresholds, problem, afterRun);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { load: { ...load, ...extra }, thresholds, afterRun } };
}

type Problem = (path: Array<string | number>, message: string) => void;

/** k6 durations (`1m30s`, `500ms`, a number of ms) as loadlab's (`90000ms`). */
export function k6Duration(
  value: unknown,
  path: Array<string | number>,
  problem: Problem,
): string | undefined {
  if (typeof value === "number") return `${value}ms`;
  if (typeof value !== "string") {
    problem(path, "a duration is a string such as 30s or 1m30s");
    return undefined;
  }
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0, rest = value.trim();
  if (rest === "") return problem(path, "an empty duration"), undefined;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
    if (m === null) return problem(path, `${value}: not a duration (e.g. 30s, 1m30s, 500ms)`), undefined;
    total += Number(m[1]) * units[m[2]];
    rest = rest.slice(m[0].length);
  }
  return `${Math.round(total)}ms`;
}

/** The load of the top-level shortcuts or of the one scenario. */
function loadOf(o: Options, problem: Problem): Record<string, unknown> {
  if (o.scenarios !== undefined) {
    const shortcut = ["vus", "duration", "iterations", "stages"].find((k) => o[k] !== undefined);
    if (shortcut) {
      problem(["options", shortcut], "give scenarios or the shortcut options (vus, duration, ...), not both");
    }
    const entries = Object.entries(o.scenarios as Record<string, Options>);
    if (entries.length !== 1) {
      problem(
        ["options", "scenarios"],
        "several scenarios run at the same time in k6; loadlab runs one load at a time: keep one scenario",
      );
      return {};
    }
    return scenarioLoad(entries[0][1], ["options", "scenarios", entries[0][0]], problem);
  }
  const vus = (o.vus as number | undefined) ?? 1;
  if (o.stages !== undefined) {
    return { model: "connections", stages: stagesOf(o.stages, ["options", "stages"], problem) };
  }
  if (o.iterations !== undefined) {
    const duration = o.duration === undefined
      ? undefined
      : k6Duration(o.duration, ["options", "duration"], problem);
    return { model: "count", requests: o.iterations, connections: vus, ...(duration ? { duration } : {}) };
  }
  if (o.duration !== undefined) {
    return {
      model: "connections",
      connections: vus,
      duration: k6Duration(o.duration, ["options", "duration"], problem),
    };
  }
  // k6 without a duration or iterations runs one iteration (per VU given).
  return { model: "count", requests: vus, connections: vus };
}

/** ramping stages `{duration, target}` as loadlab's. */
function stagesOf(stages: unknown, path: Array<string | number>, problem: Problem) {
  if (!Array.isArray(stages)) return problem(path, "stages is a list of { duration, target }"), [];
  return stages.map((s, k) => ({
    duration: k6Duration(s.duration, [...path, k, "duration"], problem),
    target: s.target,
  }));
}

const SCENARIO_COMMON = new Set(["executor", "exec", "gracefulStop"]);

/** One scenario's executor as a load. */
function scenarioLoad(sc: Options, path: Array<string | number>, problem: Problem): Record<string, unknown> {
  const at = (key: string) => [...path, key];
  const d = (key: string) => sc[key] === undefined ? undefined : k6Duration(sc[key], at(key), problem);
  const take = (...keys: string[]) => {
    for (const key of Object.keys(sc)) {
      if (SCENARIO_COMMON.has(key) || keys.includes(key)) continue;
      if (key === "startTime" && (sc.startTime === "0s" || sc.startTime === 0)) continue;
      problem(at(key), `${key} is not honoured for ${String(sc.executor)} by loadlab; remove it to run`);
    }
  };
  const graceful = sc.gracefulStop === undefined ? {} : { gracefulStop: d("gracefulStop") };
  const perSec = (rate: unknown) =>
    Number(rate) * 1000 / Number(k6Duration(sc.timeUnit ?? "1s", at("timeUnit"), problem)?.slice(0, -2));
  const maxConnections = (sc.maxVUs ?? sc.preAllocatedVUs) as number | undefined;
  switch (sc.executor) {
    case "constant-vus":
    case "externally-controlled":
      take("vus", "duration", "maxVUs");
      return { model: "connections", connections: sc.vus ?? 1, duration: d("duration"), ...graceful };
    case "ramping-vus": {
      take("startVUs", "stages", "gracefulRampDown");
      const stages = stagesOf(sc.stages, at("stages"), problem);
      const start = (sc.startVUs as number | undefined) ?? 1;
      // loadlab ramps from 0: a first instant stage reaches startVUs.
      const first = start > 0 ? [{ duration: "1ms", target: start }] : [];
      return { model: "connections", stages: [...first, ...stages], ...graceful };
    }
    case "per-vu-iterations":
    case "shared-iterations": {
      take("vus", "iterations", "maxDuration");
      const vus = (sc.vus as number | undefined) ?? 1,
        iterations = (sc.iterations as number | undefined) ?? 1;
      const requests = sc.executor === "per-vu-iterations" ? vus * iterations : iterations;
      const duration = d("maxDuration");
      return { model: "count", requests, connections: vus, ...(duration ? { duration } : {}), ...graceful };
    }
    case "constant-arrival-rate":
      take("rate", "timeUnit", "duration", "preAllocatedVUs", "maxVUs");
      return {
        model: "rate",
        phases: [{ duration: d("duration"), rate: perSec(sc.rate) }],
        ...(maxConnections ? { maxConnections } : {}),
        ...graceful,
      };
    case "ramping-arrival-rate": {
      take("startRate", "timeUnit", "stages", "preAllocatedVUs", "maxVUs");
      let from = perSec(sc.startRate ?? 0);
      const phases = (Array.isArray(sc.stages) ? sc.stages : []).map((s: Options, k: number) => {
        const phase = {
          duration: k6Duration(s.duration, [...at("stages"), k, "duration"], problem),
          rate: from,
          rampTo: perSec(s.target),
        };
        from = phase.rampTo;
        return phase;
      });
      return { model: "rate", phases, ...(maxConnections ? { maxConnections } : {}), ...graceful };
    }
    default:
      problem(at("executor"), `${String(sc.executor)}: not a k6 executor loadlab knows`);
      return {};
  }
}

const METRICS = new Set(["http_req_duration", "http_reqs", "http_req_failed"]);
/** k6's built-in metrics that k6's summary here has no numbers for. */
const NOT_MEASURED = new Set([
  "http_req_waiting",
  "http_req_connecting",
  "http_req_blocked",
  "http_req_sending",
  "http_req_receiving",
  "http_req_tls_handshaking",
  "vus_max",
  "group_duration",
  "dropped_iterations",
]);
const AFTER_RUN_RULE =
  /^(avg|min|max|med|p\(\d+(\.\d+)?\)|count|rate|value)\s*(<=|>=|==|!=|<|>)\s*-?\d+(\.\d+)?$/;
const SELECTOR_KEYS = new Set(["name", "method"]);

/** k6 thresholds (`{ metric{tags}: [expr | {threshold, abortOnFail, delayAbortEval}] }`) as loadlab's. */
function thresholdsOf(
  thresholds: unknown,
  problem: Problem,
  afterRun: AfterRunRule[],
): Array<string | Record<string, unknown>> {
  if (thresholds === undefined) return [];
  const out: Array<string | Record<string, unknown>> = [];
  for (const [key, list] of Object.entries(thresholds as Record<string, unknown>)) {
    const path = ["options", "thresholds", key];
    const m = /^([a-z_0-9]+)(\{([^{}]*)\})?$/i.exec(key.trim());
    if (m === null || NOT_MEASURED.has(m[1])) {
      problem(path, `${m?.[1] ?? key}: loadlab's k6 summary has no numbers for this metric`);
      continue;
    }
    if (!METRICS.has(m[1])) {
      if (m[2] !== undefined) problem(path, `${key}: a custom metric's threshold by tag is not judged yet`);
      else afterRun.push(...afterRunRules(m[1], list, path, problem));
      continue;
    }
    for (const pair of (m[3] ?? "").split(",").filter((p) => p.trim() !== "")) {
      const tag = pair.split(":")[0].trim();
      if (!SELECTOR_KEYS.has(tag)) {
        problem(path, `{${tag}:...}: loadlab selects requests by name or method only`);
      }
    }
    for (const [k, item] of (Array.isArray(list) ? list : [list]).entries()) {
      if (typeof item === "string") out.push(`${key}: ${item}`);
      else if (item && typeof item === "object" && typeof (item as Options).threshold === "string") {
        const t = item as Options;
        const rule: Record<string, unknown> = { expr: `${key}: ${t.threshold}` };
        if (t.abortOnFail !== undefined) rule.abortOnFail = t.abortOnFail;
        if (t.delayAbortEval !== undefined) {
          rule.delayAbortEval = k6Duration(t.delayAbortEval, [...path, k, "delayAbortEval"], problem);
        }
        out.push(rule);
      } else problem([...path, k], "a threshold is a string or { threshold, abortOnFail, delayAbortEval }");
    }
  }
  return out;
}

/** Thresholds judged after the run (abortOnFail would need them live): `checks` takes `rate` rules. */
function afterRunRules(metric: string, list: unknown, path: Array<string | number>, problem: Problem) {
  const rules: AfterRunRule[] = [];
  for (const [k, item] of (Array.isArray(list) ? list : [list]).entries()) {
    const t = typeof item === "string" ? { threshold: item } : item as Options;
    const rule = typeof t?.threshold === "string" ? t.threshold.trim() : "";
    if (!AFTER_RUN_RULE.test(rule) || (metric === "checks" && !rule.startsWith("rate"))) {
      problem(
        [...path, k],
        `${rule}: not a rule loadlab judges on ${metric} (e.g. rate>0.95, p(95)<200, count>10)`,
      );
    } else if (t.abortOnFail) {
      problem([...path, k], `abortOnFail on ${metric} is not honoured: it is judged after the run`);
    } else rules.push({ metric, rule });
  }
  return rules;
}
