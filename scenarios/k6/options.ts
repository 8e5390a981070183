/**
 * @module
 * A k6 script's `options` as the experiment `loadlab run script.js` runs.
 */
import { formatPath, type Issue } from "../../validation/mod.ts";
import { defined } from "../../validation/defined.ts";
import {
  checkOptionsShape,
  K6_OPTIONS,
  k6Duration,
  type Options,
  type Path,
  type Problem,
} from "./options_shape.ts";
import { addLoadPaths, K6Paths } from "./paths.ts";
import { k6Thresholds } from "../../results/thresholds/selector.ts";

/** What the options become: the loads (one per scenario), their start offsets, and the thresholds. */
interface K6Experiment {
  /** `k6` for the shortcut options; one per scenario, by its name, with `scenarios`. */
  loads: Record<string, Record<string, unknown>>;
  /** With several scenarios or a `startTime`: each load's start (the experiment's `together:`). */
  together?: Record<string, string>;
  thresholds: Array<string | Record<string, unknown>>;
  /** Thresholds judged after the run on k6's summary (checks, custom and iteration metrics). */
  afterRun: AfterRunRule[];
  /** The option each field came from: a problem found in the experiment names the script's option. */
  paths: K6Paths;
  /** `setupTimeout` and `teardownTimeout`: the experiment's fields of the same names. */
  hooksTimeouts: { setupTimeout?: string; teardownTimeout?: string };
  /** Keys that are none of k6's options (`randomSeed`): k6 warns of them and runs without them. */
  ignored: string[];
  /** VUs k6 starts idle: an externally-controlled scenario's maxVUs past its vus (in `vus_max`). */
  idleVus: number;
}

/** k6's lists of texts (`dns`: its `key:value` pairs), each item's form and the form told when one is not. */
const FORMS: Record<string, [RegExp, string]> = {
  blockHostnames: [/^\*?[\p{L}\d.-]*$/u, 'a list of host names (* for any start), e.g. ["*.example.com"]'],
  blacklistIPs: [/^[\da-f:.]+\/\d+$/i, 'a list of CIDR ranges, e.g. ["10.0.0.0/8"]'],
  systemTags: [/^/, 'a list of tag names, e.g. ["status", "method"]'],
  tlsCipherSuites: [/^/, 'a list of suite names, e.g. ["TLS_AES_128_GCM_SHA256"]'],
  dns: [
    /^(ttl:(inf|[\d.]+(ms|s|m|h)?)|select:(first|random|roundRobin)|policy:((prefer|only)IPv[46]|any))$/,
    '{ ttl: "5m" or "inf", select: "first", "random" or "roundRobin", policy: "preferIPv4", "onlyIPv6"... }',
  ],
};

/** k6's `tlsVersion` as a load's `tls`: one version, or a range. */
function tlsOf(value: unknown, problem: Problem): Record<string, unknown> {
  if (typeof value === "string") return { minVersion: value, maxVersion: value };
  const v = (value ?? {}) as Options;
  if (typeof value !== "object" || Object.keys(v).some((k) => k !== "min" && k !== "max")) {
    problem(["options", "tlsVersion"], 'tlsVersion is "tls1.2" or { min: "tls1.2", max: "tls1.3" }');
    return {};
  }
  return { ...(v.min ? { minVersion: v.min } : {}), ...(v.max ? { maxVersion: v.max } : {}) };
}

/** The experiment fields of k6 `options` (after the CLI's overrides), or the problems at their paths. */
export function k6Experiment(
  options: Options,
  /** The script's metrics: one named as a built-in adds to it, its thresholds judged after the run. */
  made: object = {},
  /** Whether the script calls gRPC: else grpc_req_duration has no sample, judged as k6 judges none. */
  grpc = true,
): { ok: true; value: K6Experiment } | { ok: false; issues: Issue[] } {
  const issues: Issue[] = [];
  const problem = (path: Path, message: string) => issues.push({ path: formatPath(path), message });
  if (!checkOptionsShape(options, problem)) return { ok: false, issues };
  const extra: Record<string, unknown> = {};
  const paths = new K6Paths();
  const hooksTimeouts: K6Experiment["hooksTimeouts"] = {};
  const ignored: string[] = [];
  for (const [host, to] of Object.entries((options.hosts ?? {}) as Options)) {
    if (typeof to !== "string" || !/^[\w.:[\]-]+$/.test(to)) {
      problem(["options", "hosts", host], 'a host maps to an address, "127.0.0.1" or "127.0.0.1:8080"');
    }
  }
  for (const [key, value] of Object.entries(options)) {
    const row = K6_OPTIONS[key];
    if (row === undefined || row.flagOnly) ignored.push(key);
    else if (row.refused) {
      problem(["options", key], `${key} is not honoured by loadlab's k6 runtime; remove it to run`);
    } else if (key === "setupTimeout" || key === "teardownTimeout") {
      const ms = k6Duration(value, ["options", key], problem);
      if (ms !== undefined) hooksTimeouts[key] = ms, paths.add([key], ["options", key]);
    } else if (key === "minIterationDuration") k6Duration(value, ["options", key], problem);
    // A connection per iteration: k6's noVUConnectionReuse, and loadlab's nearest to its noConnectionReuse.
    else if (key === "noConnectionReuse" || key === "noVUConnectionReuse") {
      if (value) extra.connection = "per-arrival";
    } else if (key in FORMS) {
      const items = key === "dns" ? Object.entries(value ?? 0).map(([k, v]) => `${k}:${v}`) : value;
      const [form, told] = FORMS[key];
      if (!Array.isArray(items) || items.some((v) => typeof v !== "string" || !form.test(v))) {
        problem(["options", key], `${key} is ${told}`);
      }
      if (key === "tlsCipherSuites") extra.tls = { ...extra.tls ?? {}, ciphers: value };
    } else if (key === "tlsAuth") extra.tls = { ...extra.tls ?? {}, auth: value };
    else if (key === "insecureSkipTLSVerify") extra.tls = { ...extra.tls ?? {}, insecure: Boolean(value) };
    else if (key === "tlsVersion") extra.tls = { ...extra.tls ?? {}, ...tlsOf(value, problem) };
  }
  const afterRun: AfterRunRule[] = [];
  const origins: Array<Path> = [];
  // Each scenario's tags, which its samples carry: the run's (`--tag` over `options.tags`), its own, its name
  const scenarios = (hasScenarios(options) ? options.scenarios : { default: {} }) as Record<string, Tagged>;
  const runTags = options.tags as Tags;
  const tagged = Object.entries(scenarios).map(([scenario, s]) => ({ ...runTags, ...s?.tags, scenario }));
  const thresholds = thresholdsOf(options.thresholds, problem, afterRun, origins, made, tagged, grpc);
  paths.add(["thresholds"], ["options", "thresholds"]);
  origins.forEach((origin, k) => paths.add(["thresholds", k], origin));
  // A problem names the option the script gave: the shortcuts' iterations' bound is its `duration`.
  const asGiven: Problem = (path, message) =>
    problem(path.map((k) => k === "maxDuration" ? "duration" : k), message);
  // As k6's: two ways of the load in one tier but iterations and a duration (their bound) are refused.
  const given = (k: string) =>
    k === "stages" ? (options.stages as unknown[] | undefined)?.length || undefined : options[k];
  const first = ["iterations", "duration", "stages"].find((k) => given(k) !== undefined);
  const second = ["stages", "scenarios"].find((k) => k !== first && given(k) !== undefined);
  if (first && second) problem(["options", first], `${first} and ${second} at once: give one of them`);
  const { loads, together } = !hasScenarios(options)
    ? { loads: { k6: scenarioLoad(shortcutScenario(options), ["options"], asGiven) }, together: undefined }
    : scenarioLoads(options, problem);
  if (issues.length > 0) return { ok: false, issues };
  for (const name of Object.keys(loads)) loads[name] = { ...loads[name], ...extra };
  addLoadPaths(paths, options, loads);
  const manual = Object.values(options.scenarios ?? {}).filter((s) => s.executor === "externally-controlled");
  const idleVus = manual.reduce((n, s) => n + Math.max(0, Number(s.maxVUs ?? 0) - Number(s.vus ?? 1)), 0);
  const value = { loads, ...(together ? { together } : {}), thresholds, afterRun, paths, hooksTimeouts };
  return { ok: true, value: { ...value, ignored, idleVus } };
}

/** Each scenario as a load by its name; several, or one with a `startTime`, run together. */
function scenarioLoads(o: Options, problem: Problem) {
  const entries = Object.entries(o.scenarios as Record<string, Options>);
  const loads: Record<string, Record<string, unknown>> = {};
  const starts: Record<string, string> = {};
  for (const [name, sc] of entries) {
    const path = ["options", "scenarios", name];
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
      problem(path, `${name}: a scenario's name here is letters, digits, _ . - (it names the load)`);
    }
    loads[name] = scenarioLoad(sc, path, problem);
    starts[name] = k6Duration(sc.startTime ?? "0s", [...path, "startTime"], problem) ?? "0ms";
  }
  const together = entries.length > 1 || Object.values(starts).some((t) => t !== "0ms");
  return { loads, together: together ? starts : undefined };
}

/** The top-level shortcuts (`vus`, `duration`, `iterations`, `stages`) as the scenario k6 makes of them. */
export function shortcutScenario(o: Options): Options {
  const vus = o.vus ?? 1;
  // As k6: stages start at `vus` (1 by default); `vus` alone or empty stages are ignored (told): 1 VU once.
  return o.iterations !== undefined
    ? { executor: "shared-iterations", vus, iterations: o.iterations, maxDuration: o.duration }
    : o.duration !== undefined
    ? { executor: "constant-vus", vus, duration: o.duration }
    : Array.isArray(o.stages) && o.stages.length > 0
    ? { executor: "ramping-vus", startVUs: vus, stages: o.stages }
    : { executor: "per-vu-iterations", vus: 1, iterations: 1 };
}

/** Whether `o` names a scenario (k6 runs empty `scenarios` as none, with a warning). */
export const hasScenarios = (o: Options) => Object.keys(o.scenarios ?? {}).length > 0;

/** k6's warnings of the shortcuts it ignores: `vus` with no duration, iterations or stages; empty ones. */
export function ignoredShortcuts(o: Options): string[] {
  if (hasScenarios(o) || shortcutScenario(o).executor !== "per-vu-iterations") return [];
  const vus = o.vus === undefined || o.vus === 1 ? [] : [`the \`vus=${o.vus}\` option will be ignored`];
  const empty = ["stages", "scenarios"].filter((k) => o[k] !== undefined).map((k) =>
    `\`${k}\` was explicitly set to an empty value, running the script with 1 iteration in 1 VU`
  );
  return [
    ...vus.map((v) => `${v}, it only works in conjunction with \`iterations\`, \`duration\`, or \`stages\``),
    ...empty,
  ];
}

/** ramping stages `{duration, target}` as loadlab's. */
function stagesOf(stages: unknown, path: Path, problem: Problem) {
  if (!Array.isArray(stages)) return problem(path, "stages is a list of { duration, target }"), [];
  return stages.map((s, k) => ({
    // k6's 0s stage jumps to its target, which a ramp of 1 ms is here.
    duration: k6Duration(s.duration, [...path, k, "duration"], problem)?.replace(/^0ms$/, "1ms"),
    target: s.target,
  }));
}

/** Keys every executor takes: `tags` and `env` are the runtime's (runner/script/k6/runtime.ts). */
const SCENARIO_COMMON = new Set(["executor", "exec", "gracefulStop", "tags", "env", "startTime"]);

/** A scenario's fields read with their paths: durations, rates per second, and the keys an executor takes. */
type ScenarioReader = ReturnType<typeof scenarioReader>;

function scenarioReader(sc: Options, path: Path, problem: Problem) {
  const at = (key: string) => [...path, key];
  const duration = (key: string) => sc[key] === undefined ? undefined : k6Duration(sc[key], at(key), problem);
  // Read once, when a rate is: a timeUnit of 0 would make every rate Infinity (null in the experiment).
  let unit: number | undefined;
  const unitMs = () => {
    if (unit !== undefined) return unit;
    unit = Number(k6Duration(sc.timeUnit ?? "1s", at("timeUnit"), problem)?.slice(0, -2));
    if (unit === 0) problem(at("timeUnit"), 'timeUnit must be more than 0, e.g. "1s"');
    return unit;
  };
  // As k6's arrival rates: `preAllocatedVUs` made before the start; an iteration no VU is free for is
  // dropped, never queued, while one more VU is made for later ones (up to `maxVUs`).
  const arrival = String(sc.executor).endsWith("arrival-rate");
  return {
    sc,
    at,
    duration,
    /** Refuses every key but the executor's own and the common ones. */
    take: (...keys: string[]) => {
      for (const key of Object.keys(sc)) {
        if (SCENARIO_COMMON.has(key) || keys.includes(key)) continue;
        problem(at(key), `${key} is not honoured for ${String(sc.executor)} by loadlab; remove it to run`);
      }
    },
    perSec: (rate: unknown) => Number(rate) * 1000 / unitMs(),
    /** `gracefulStop`; an arrival rate's `maxConnections` (`maxVUs` or `preAllocatedVUs`), `preConnect`. */
    extra: defined({
      gracefulStop: duration("gracefulStop"),
      ...(arrival && { maxConnections: sc.maxVUs || sc.preAllocatedVUs, preConnect: sc.preAllocatedVUs }),
      whenBusy: arrival ? "drop" : undefined,
    }),
    problem,
  };
}

function scenarioLoad(sc: Options, path: Path, problem: Problem): Record<string, unknown> {
  const r = scenarioReader(sc, path, problem);
  switch (sc.executor) {
    case "constant-vus":
    case "externally-controlled":
    case "ramping-vus":
      return { ...vusLoad(r), ...r.extra };
    case "per-vu-iterations":
    case "shared-iterations":
      return { ...iterationsLoad(r), ...r.extra };
    case "constant-arrival-rate":
    case "ramping-arrival-rate":
      return { model: "rate", phases: arrivalPhases(r), ...r.extra };
    default:
      problem(r.at("executor"), `${String(sc.executor)}: not a k6 executor loadlab knows`);
      return {};
  }
}

/** constant-vus (and externally-controlled, steered live) as connections; ramping-vus as stages. */
function vusLoad(r: ScenarioReader): Record<string, unknown> {
  const sc = r.sc;
  if (sc.executor !== "ramping-vus") {
    r.take("vus", "duration", "maxVUs");
    return { model: "connections", connections: sc.vus ?? 1, duration: r.duration("duration") };
  }
  r.take("startVUs", "stages", "gracefulRampDown");
  const stages = stagesOf(sc.stages, r.at("stages"), r.problem);
  // loadlab ramps from 0: a first instant stage reaches k6's starting virtual users (none for 0).
  const vus = Number(sc.startVUs ?? 1), start = vus > 0 ? [{ duration: "1ms", target: vus }] : [];
  return {
    model: "connections",
    stages: [...start, ...stages],
    gracefulRampDown: r.duration("gracefulRampDown") ?? "30s",
  };
}

/** The iteration executors as a count of sessions (per-vu: vus x iterations), maxDuration its bound. */
function iterationsLoad(r: ScenarioReader): Record<string, unknown> {
  const sc = r.sc;
  r.take("vus", "iterations", "maxDuration");
  const vus = (sc.vus as number | undefined) ?? 1, iterations = (sc.iterations as number | undefined) ?? 1;
  const requests = sc.executor === "per-vu-iterations" ? vus * iterations : iterations;
  if (requests < vus) r.problem(r.at("iterations"), `${iterations} is fewer than the VUs (${vus})`);
  const duration = r.duration("maxDuration");
  const eachConnection = (sc.executor === "per-vu-iterations" && vus > 1) || undefined;
  return { model: "count", requests, connections: vus, ...defined({ duration, eachConnection }) };
}

/** The arrival-rate executors as rate phases (per second). */
function arrivalPhases(r: ScenarioReader): Array<Record<string, unknown>> {
  const sc = r.sc;
  if (sc.executor === "constant-arrival-rate") {
    r.take("rate", "timeUnit", "duration", "preAllocatedVUs", "maxVUs");
    return [{ duration: r.duration("duration"), rate: r.perSec(sc.rate) }];
  }
  r.take("startRate", "timeUnit", "stages", "preAllocatedVUs", "maxVUs");
  let from = r.perSec(sc.startRate ?? 0);
  return stagesOf(sc.stages ?? [], r.at("stages"), r.problem).map(({ duration, target }) => {
    const rate = from;
    from = r.perSec(target);
    return { duration, rate, rampTo: from };
  });
}

type Tags = Record<string, string>;
type Tagged = { tags?: Tags } | null;

/** A threshold judged after the run: `rate>0.9` on `checks`. */
type AfterRunRule = {
  metric: string;
  rule: string;
  abortOnFail?: { delayMs: number };
  /** Judged as this metric, as each of its tags is one every sample carries ("": a value none carries). */
  as?: string;
};

const METRICS = new Set(["http_req_duration", "http_reqs", "http_req_failed"]);
/** k6's gRPC metrics and the HTTP metric whose numbers loadlab has for them. */
const GRPC_METRICS: Record<string, string> = { grpc_req_duration: "http_req_duration" };
/** k6's metrics counted in the load's workers' results, known once the run is over (not sent live). */
const COUNTED_AFTER = new Set(
  "checks iterations iteration_duration vus vus_max data_sent data_received dropped_iterations".split(" "),
);
/** Iteration metrics by scenario, or by a group but the root: empty (k6 v1.8.1 samples them at root). */
const BY_SCENARIO = new Set(["iterations", "iteration_duration"]);
/** A rule on a metric judged after the run; a percentile is of 0 to 100 (`p(150)` read as a failed rule). */
const AFTER_RUN_RULE =
  /^(avg|min|max|med|p\((100(\.0+)?|\d{1,2}(\.\d+)?)\)|count|rate|value)\s*=?(<=|>=|==|!=|<|>)\s*-?\d+(\.\d+)?$/;

/** k6 thresholds (`{ metric{tags}: [expr | {threshold, abortOnFail, delayAbortEval}] }`) as loadlab's. */
function thresholdsOf(
  thresholds: unknown,
  problem: Problem,
  afterRun: AfterRunRule[],
  origins: Array<Path> = [],
  made: object = {},
  tagged: Tags[] = [{}],
  grpc = true,
): Array<string | Record<string, unknown>> {
  const out: Array<string | Record<string, unknown>> = [];
  // The tags every sample of a counted metric carries: those all scenarios share.
  const carried = Object.fromEntries(
    Object.entries(tagged[0]).filter(([k, v]) => tagged.every((t) => t[k] === v)),
  );
  for (const { key, list, rules, metric: name, inner, tags: pairs } of k6Thresholds(thresholds)) {
    const path = ["options", "thresholds", key];
    if (name === undefined) {
      problem(path, `${key}: not a metric's name, e.g. http_req_duration or http_req_duration{name:login}`);
      continue;
    }
    // Named as k6 names a submetric: the inside of its braces trimmed (`{ name: home }` is `{name: home}`).
    const braces = inner === undefined ? "" : `{${inner.trim()}}`;
    const metric = (grpc && GRPC_METRICS[name]) || name;
    // A failure's own code (a refused connect's 1212), not a status's (1404), is judged after the run.
    const code = Number(pairs.find(([k]) => k === "error_code")?.[1] ?? 1400);
    // A request duration's submetric with abortOnFail is judged live by the k6 runtime's metrics.
    const live = name === "http_req_duration" && inner !== undefined && rules.some((t) => t.abortOnFail);
    if (!METRICS.has(metric) || live || Object.hasOwn(made, metric) || !(code >= 1400 && code < 1600)) {
      // A counted metric by tag is judged by what its results keep apart (scenario, group, no response);
      // k6 counts data_* per iteration in its scenario and root group: no request, group or status picks it.
      const data = name === "data_sent" || name === "data_received";
      const whole = data || pairs.every(([k]) => Object.hasOwn(carried, k));
      // k6 tags an iteration with its scenario's `tags`: a filter that picks one scenario's is by scenario.
      const picked = tagged.filter((t) => pairs.every(([k, v]) => t[k] === v));
      const apart = name === "checks" ||
        (BY_SCENARIO.has(name) && pairs.every(([k, v]) => k === "scenario" || (k === "group" && v))) ||
        (data && pairs.every(([k, v]) => k === "scenario" || (k === "group" && !v)));
      // iterations by any tag: the runtime counts those that end carrying it (a VU's own tags too).
      if (inner === undefined || apart || !COUNTED_AFTER.has(name) || name === "iterations") {
        afterRun.push(...afterRunRules(`${name}${braces}`, rules, path, problem));
      } else if (whole || (BY_SCENARIO.has(name) && picked.length === 1)) {
        const carries = pairs.every(([k, v]) => carried[k] === v);
        const as = whole ? (carries ? name : "") : `${name}{scenario:${picked[0].scenario}}`;
        afterRun.push(...afterRunRules(`${name}${braces}`, rules, path, problem).map((r) => ({ ...r, as })));
      } else {
        const by = BY_SCENARIO.has(name) ? " but by scenario" : "";
        problem(
          path,
          `${key}: ${name}'s threshold by tag is not judged yet${by} (judge ${name} without tags)`,
        );
      }
      continue;
    }
    const selected = metric + braces;
    for (const [k, item] of (Array.isArray(list) ? list : [list]).entries()) {
      // Each threshold out names the rule it came from, for problems found after the mapping.
      const origin = Array.isArray(list) ? [...path, k] : path;
      if (typeof item === "string") origins.push(origin), out.push(`${selected}: ${item}`);
      else if (item && typeof item === "object" && typeof (item as Options).threshold === "string") {
        const t = item as Options;
        const rule: Record<string, unknown> = { expr: `${selected}: ${t.threshold}` };
        if (t.abortOnFail !== undefined) rule.abortOnFail = t.abortOnFail;
        if (t.delayAbortEval !== undefined) {
          // k6 reads delayAbortEval always, and waits by it only before an abortOnFail's abort.
          const delay = abortDelay(t.delayAbortEval, [...path, k, "delayAbortEval"], problem);
          if (t.abortOnFail) rule.delayAbortEval = delay;
        }
        origins.push(origin), out.push(rule);
      } else problem([...path, k], "a threshold is a string or { threshold, abortOnFail, delayAbortEval }");
    }
  }
  return out;
}

/** k6's delayAbortEval as loadlab's: k6 aborts only once the time spent is past it (judged every 2 s). */
function abortDelay(value: unknown, path: Path, problem: Problem): string | undefined {
  const ms = k6Duration(value, path, problem);
  return ms === undefined ? undefined : `${parseInt(ms, 10) + 1}ms`;
}

/** Thresholds judged after the run: `checks` takes `rate` rules. */
function afterRunRules(metric: string, list: Options[], path: Path, problem: Problem) {
  const rules: AfterRunRule[] = [];
  for (const [k, t] of list.entries()) {
    // Judged trimmed, named as written (k6's summary export keys it so).
    const rule = typeof t?.threshold === "string" ? t.threshold : "";
    const checks = metric === "checks" || metric.startsWith("checks{");
    if (!AFTER_RUN_RULE.test(rule.trim()) || (checks && !rule.trim().startsWith("rate"))) {
      problem(
        [...path, k],
        `${rule}: not a rule loadlab judges on ${metric} (e.g. rate>0.95, p(95)<200, count>10)`,
      );
    } else if (t.abortOnFail && !checks && COUNTED_AFTER.has(metric)) {
      problem(
        [...path, k],
        `abortOnFail on ${metric} is not honoured: ${metric} is counted in the run's results, judged after it`,
      );
    } else if (t.abortOnFail) {
      const delay = t.delayAbortEval === undefined
        ? "0ms"
        : abortDelay(t.delayAbortEval, [...path, k, "delayAbortEval"], problem);
      rules.push({ metric, rule, abortOnFail: { delayMs: parseInt(delay ?? "0", 10) } });
    } else rules.push({ metric, rule });
  }
  return rules;
}
