/**
 * @module
 * The types of a k6 script's `options`, checked before they are mapped onto loads (options.ts), and
 * k6's durations (`1m30s`, `500ms`, a number of ms) as loadlab's.
 */
import { durationMsOf } from "../../validation/duration.ts";
import { isRecord } from "../../validation/json_document.ts";
import { showValue } from "../../validation/mod.ts";

/** A k6 script's options object, and a path into it. */
export type Options = Record<string, unknown>;
export type Path = Array<string | number>;

/**
 * One of k6's options: how it is written (`json`: no text form), its flag (`true`: its variable's name in
 * kebab case) and its `K6_` variable; one without a flag takes its variable as an unlisted flag.
 */
export interface K6Option {
  kind: "switch" | "count" | "duration" | "list" | "dns" | "ips" | "text" | "json";
  flag?: string | true;
  short?: string;
  env?: string;
  /** Its flag is one of the run's own (cli/run/), which reads it: the row gives its variable. */
  ownFlag?: true;
  /** k6 reads it from its flag and variable only (a run's, not the script's or its config file's). */
  flagOnly?: true;
  /** Not honoured: the script's option is refused (`true`), or its variable, saying why. */
  refused?: true;
  envRefused?: string;
}

const ANY_VARIABLE = "loadlab reads this option from the script or --config only: unset it";
/** k6's options loadlab knows, by their key in `options`; any other key k6 ignores, with a warning. */
export const K6_OPTIONS: Record<string, K6Option> = {
  vus: { kind: "count", flag: "concurrency", env: "VUS", ownFlag: true },
  duration: { kind: "duration", flag: "duration", env: "DURATION", ownFlag: true },
  iterations: { kind: "count", flag: "requests", env: "ITERATIONS", ownFlag: true },
  stages: { kind: "json", flag: "stages", env: "STAGES", ownFlag: true },
  scenarios: { kind: "json" },
  thresholds: { kind: "json", env: "THRESHOLDS", envRefused: ANY_VARIABLE },
  tags: { kind: "json", flag: "tag", env: "TAGS", ownFlag: true },
  summaryTrendStats: { kind: "list", flag: true, env: "SUMMARY_TREND_STATS", ownFlag: true },
  httpDebug: { kind: "text", flag: true, env: "HTTP_DEBUG", ownFlag: true },
  noThresholds: { kind: "switch", flag: true, env: "NO_THRESHOLDS", ownFlag: true, flagOnly: true },
  quiet: { kind: "switch", flag: true, env: "QUIET", ownFlag: true, flagOnly: true },
  noSummary: { kind: "switch", flag: true, env: "NO_SUMMARY", ownFlag: true, flagOnly: true },
  summaryExport: { kind: "text", flag: true, env: "SUMMARY_EXPORT", ownFlag: true, flagOnly: true },
  summaryMode: { kind: "text", flag: true, env: "SUMMARY_MODE", ownFlag: true, flagOnly: true },
  out: { kind: "list", flag: true, env: "OUT", ownFlag: true, flagOnly: true },
  consoleOutput: { kind: "text", flag: true, env: "CONSOLE_OUTPUT", ownFlag: true, flagOnly: true },
  compatibilityMode: { kind: "text", flag: true, env: "COMPATIBILITY_MODE", ownFlag: true, flagOnly: true },
  config: { kind: "text", flag: true, env: "CONFIG", ownFlag: true, flagOnly: true },
  includeSystemEnvVars: { kind: "switch", flag: true, env: "INCLUDE_SYSTEM_ENV_VARS", flagOnly: true },
  localIPs: { kind: "ips", flag: true, env: "LOCAL_IPS", flagOnly: true },
  noSetup: { kind: "switch", flag: true, env: "NO_SETUP" },
  noTeardown: { kind: "switch", flag: true, env: "NO_TEARDOWN" },
  setupTimeout: { kind: "duration", env: "SETUP_TIMEOUT" },
  teardownTimeout: { kind: "duration", env: "TEARDOWN_TIMEOUT" },
  rps: { kind: "count", flag: true, env: "RPS" },
  batch: { kind: "count", flag: true, env: "BATCH" },
  batchPerHost: { kind: "count", flag: true, env: "BATCH_PER_HOST" },
  maxRedirects: { kind: "count", flag: true, env: "MAX_REDIRECTS" },
  userAgent: { kind: "text", flag: true, env: "USER_AGENT" },
  throw: { kind: "switch", flag: true, short: "w", env: "THROW" },
  minIterationDuration: { kind: "duration", flag: true, env: "MIN_ITERATION_DURATION" },
  discardResponseBodies: { kind: "switch", flag: true, env: "DISCARD_RESPONSE_BODIES" },
  noConnectionReuse: { kind: "switch", flag: true, env: "NO_CONNECTION_REUSE" },
  noVUConnectionReuse: { kind: "switch", flag: true, env: "NO_VU_CONNECTION_REUSE" },
  noCookiesReset: { kind: "switch", env: "NO_COOKIES_RESET" },
  insecureSkipTLSVerify: { kind: "switch", flag: true, env: "INSECURE_SKIP_TLS_VERIFY" },
  tlsCipherSuites: { kind: "list", env: "TLS_CIPHER_SUITES" },
  tlsVersion: { kind: "json" },
  tlsAuth: {
    kind: "json",
    env: "TLSAUTH",
    envRefused: "k6 reads no pair from it (each comma-separated part is an empty one, and every VU fails: " +
      '"tls: failed to find any PEM data in certificate input"): give options.tlsAuth or --config\'s',
  },
  summaryTimeUnit: { kind: "text", flag: true, env: "SUMMARY_TIME_UNIT" },
  systemTags: { kind: "list", flag: true, env: "SYSTEM_TAGS" },
  dns: { kind: "dns", flag: true, env: "DNS" },
  blacklistIPs: { kind: "list", flag: "blacklist-ip", env: "BLACKLIST_IPS" },
  blockHostnames: { kind: "list", flag: true, env: "BLOCK_HOSTNAMES" },
  hosts: { kind: "json" },
  ext: { kind: "json" },
  cloud: { kind: "json" },
  paused: {
    kind: "switch",
    env: "PAUSED",
    refused: true,
    envRefused: "loadlab starts no run paused: unset it",
  },
  executionSegment: { kind: "text", refused: true },
  executionSegmentSequence: { kind: "text", refused: true },
  handleSummaryTimeout: { kind: "duration", refused: true },
  metricSamplesBufferSize: { kind: "count", refused: true },
  features: { kind: "json", refused: true },
};
export const optionsOf = (kind: K6Option["kind"]) =>
  Object.keys(K6_OPTIONS).filter((k) => K6_OPTIONS[k].kind === kind && !K6_OPTIONS[k].flagOnly);
/** Options that are counts, at the top level and in a scenario. */
const COUNTS = optionsOf("count"), SWITCHES = optionsOf("switch");
const SCENARIO_COUNTS = ["vus", "iterations", "startVUs", "preAllocatedVUs", "maxVUs"];
/** Per-time-unit rates of the arrival-rate executors. */
const SCENARIO_RATES = ["rate", "startRate"];

/** Reports each option of the wrong type at its path; returns whether all had the right one. */
export function checkOptionsShape(options: Options, problem: Problem): boolean {
  let ok = true;
  const bad: Problem = (path, message) => {
    ok = false;
    problem(path, message);
  };
  for (const key of COUNTS) count(options, key, ["options", key], bad);
  for (const key of SWITCHES) {
    const v = options[key];
    if (v !== undefined && typeof v !== "boolean") {
      bad(["options", key], `${key} must be true or false, found ${shown(v)}`);
    }
  }
  if (options.stages !== undefined) stages(options.stages, ["options", "stages"], bad);
  texts(options.tags, ["options", "tags"], bad);
  if (options.thresholds !== undefined && !isRecord(options.thresholds)) {
    bad(
      ["options", "thresholds"],
      'thresholds is an object of metric: rules, e.g. { http_req_duration: ["p(95)<500"] }',
    );
  }
  if (options.scenarios !== undefined) scenarios(options.scenarios, bad);
  summaryOptions(options, bad);
  return ok;
}

/** The stats k6's summary computes for a trend: `p(N)` is any percentile from 0 to 100, `p(99.9)` too. */
const TREND_STAT = /^(?:avg|min|med|max|count|p\((\d+(?:\.\d+)?)\))$/;
export const TREND_STATS_TOLD =
  "avg, min, med, max, count or p(N) with N from 0 to 100 (e.g. p(95), p(99.9))";

export function isTrendStat(stat: unknown): boolean {
  const m = typeof stat === "string" ? TREND_STAT.exec(stat) : null;
  return m !== null && (m[1] === undefined || Number(m[1]) <= 100);
}

/** `summaryTrendStats` checked as k6 checks it before a run (`summaryTimeUnit` only as a flag: cli/run). */
function summaryOptions(options: Options, bad: Problem): void {
  const stats = options.summaryTrendStats;
  const at = ["options", "summaryTrendStats"];
  if (stats !== undefined && !Array.isArray(stats)) {
    bad(at, `summaryTrendStats is a list of stats (${TREND_STATS_TOLD}), found ${shown(stats)}`);
  }
  for (const [k, stat] of (Array.isArray(stats) ? stats : []).entries()) {
    if (!isTrendStat(stat)) {
      bad([...at, k], `${shown(stat)} is not a trend stat: k6's are ${TREND_STATS_TOLD}`);
    }
  }
}

function scenarios(value: unknown, bad: Problem): void {
  if (!isRecord(value)) {
    return bad(
      ["options", "scenarios"],
      'scenarios is an object of name: scenario, e.g. { browse: { executor: "constant-vus", vus: 5, duration: "30s" } }',
    );
  }
  for (const [name, sc] of Object.entries(value)) {
    const path = ["options", "scenarios", name];
    if (!isRecord(sc)) {
      bad(
        path,
        `a scenario must be an object with its executor, e.g. { executor: "shared-iterations", iterations: 10 }`,
      );
      continue;
    }
    for (const key of SCENARIO_COUNTS) count(sc, key, [...path, key], bad);
    for (const key of SCENARIO_RATES) {
      const v = sc[key];
      if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v >= 0)) {
        bad(
          [...path, key],
          `${key} must be a number of iterations per timeUnit (0 or more), found ${shown(v)}`,
        );
      }
    }
    if (sc.stages !== undefined) stages(sc.stages, [...path, "stages"], bad);
    if (sc.exec !== undefined && typeof sc.exec !== "string") {
      bad([...path, "exec"], `exec must name an exported function, found ${shown(sc.exec)}`);
    }
    if (sc.executor !== undefined && typeof sc.executor !== "string") {
      bad(
        [...path, "executor"],
        `executor is a k6 executor's name (e.g. "constant-vus"), found ${shown(sc.executor)}`,
      );
    }
    texts(sc.tags, [...path, "tags"], bad);
    texts(sc.env, [...path, "env"], bad);
  }
}

/** A count: a whole number, 0 or more; its text (`vus: __ENV.VUS`) read as the number, as k6 reads it. */
function count(holder: Options, key: string, path: Path, bad: Problem): void {
  if (typeof holder[key] === "string" && /^\d+$/.test(holder[key])) holder[key] = Number(holder[key]);
  const v = holder[key];
  if (v === undefined || (typeof v === "number" && Number.isSafeInteger(v) && v >= 0)) return;
  bad(path, `${path[path.length - 1]} must be a whole number (0 or more), found ${shown(v)}`);
}

/** `[{ duration, target }]`, each target a count. */
function stages(v: unknown, path: Path, bad: Problem): void {
  if (!Array.isArray(v)) {
    return bad(path, 'stages is a list of { duration, target }, e.g. [{ duration: "30s", target: 10 }]');
  }
  v.forEach((s, k) => {
    if (!isRecord(s)) return bad([...path, k], `a stage must be { duration, target }, found ${shown(s)}`);
    if (s.target === undefined) {
      return bad([...path, k, "target"], "a stage needs its target (a whole number)");
    }
    count(s, "target", [...path, k, "target"], bad);
  });
}

/** An object of text values (tags, env), or absent. */
function texts(v: unknown, path: Path, bad: Problem): void {
  if (v === undefined) return;
  if (!isRecord(v)) {
    return bad(path, `${path[path.length - 1]} must be an object of name: text, found ${shown(v)}`);
  }
  for (const [key, value] of Object.entries(v)) {
    // k6 reads them as Go's strings: a number or a boolean is refused too (quote it).
    if (typeof value !== "string") bad([...path, key], `a value here must be text, found ${shown(value)}`);
  }
}

const shown = (v: unknown) => v === undefined ? "undefined" : showValue(v);

/** Takes a problem with the options path it is at. */
export type Problem = (path: Path, message: string) => void;

/** k6 durations (`1m30s`, `500ms`, a number of ms) as loadlab's (`90000ms`). */
export function k6Duration(value: unknown, path: Path, problem: Problem): string | undefined {
  if (typeof value === "number") return `${value}ms`;
  if (typeof value !== "string") {
    problem(path, "a duration is a string such as 30s or 1m30s");
    return undefined;
  }
  if (value.trim() === "") return problem(path, "an empty duration"), undefined;
  const ms = durationMsOf(value);
  if (ms === undefined) return problem(path, `${value}: not a duration (e.g. 30s, 1m30s, 500ms)`), undefined;
  return `${Math.round(ms)}ms`;
}
