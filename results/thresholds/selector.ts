/**
 * @module
 * Thresholds on some endpoints of a run (`p99{name:GET /json}<200ms`, k6's `http_req_duration{name:/login}`):
 * the picked endpoints pooled into one view. Pure.
 */
import type { EndpointResult, RunResult } from "../mod.ts";
import { decodeHistogram, encodeHistogram, mergeEncoded, summarizeMs } from "../histogram.ts";
import { unansweredRequests, unmeasuredMs } from "../conclude/responses.ts";
import { addCounts, successRateOf, sumValues } from "../interval_counts.ts";
import { ConfigError } from "../../validation/config_error.ts";
import { type ExpectedStatuses, isExpectedStatus } from "../schema/keys.ts";

/** `key:value` pairs an endpoint must all match: `name`, `method`, or a user tag. */
export type Selector = Record<string, string>;

const BRACES = /\{(.*)\}/;

/** The expression without its selector, and the selector (undefined when there are no braces). */
export function splitSelector(expression: string): { rest: string; selector?: Selector; problem?: string } {
  const m = BRACES.exec(expression);
  if (!m) return { rest: expression };
  const rest = expression.slice(0, m.index) + expression.slice(m.index + m[0].length);
  const selector: Selector = {};
  for (const [key, quoted] of tagPairs(m[1])) {
    const value = unquote(quoted);
    if (key === "" || value === "") {
      return { rest, problem: `selector {${m[1]}}: write {name:GET /json}, {method:POST} or {tag:value}` };
    }
    selector[key] = value;
  }
  return { rest, selector };
}

/** The trimmed `key:value` pairs between a selector's braces, one per comma; no `:` leaves no value. */
function tagPairs(inner: string): Array<[string, string]> {
  return inner.split(",").map((part) => {
    const colon = part.indexOf(":");
    return colon < 0 ? [part.trim(), ""] : [part.slice(0, colon).trim(), part.slice(colon + 1).trim()];
  });
}

/** A script's `options.thresholds`: keys read as k6 does (`metric{tag:value,...}`), rules as objects. */
export function k6Thresholds(thresholds: unknown) {
  return Object.entries(thresholds ?? {}).map(([key, list]) => {
    const m = /^([a-z_0-9]+)(?:\{(.*)\})?$/i.exec(key.trim());
    const rules = [list].flat().map((t) =>
      (typeof t === "string" ? { threshold: t } : t ?? {}) as Record<string, unknown>
    );
    const inner: string | undefined = m?.[2];
    return { key, list, rules, metric: m?.[1], inner, tags: inner === undefined ? [] : tagPairs(inner) };
  });
}

function unquote(text: string): string {
  const q = text[0];
  return (q === '"' || q === "'") && text.endsWith(q) && text.length >= 2 ? text.slice(1, -1) : text;
}

const K6_RULE =
  /^(?:([^:<>={}]+):)?\s*(http_req_duration|http_reqs|http_req_failed)\s*(\{.*\})?\s*:?\s*([a-z]+(?:\([\d.]+\))?)\s*=?(<=|>=|==|!=|<|>)\s*(.+)$/;

/** k6's aggregations in loadlab's metric names, per k6 metric. */
const K6_AGGREGATIONS: Record<string, Record<string, string>> = {
  http_req_duration: { avg: "mean", med: "p50", min: "min", max: "max" },
  http_reqs: { count: "requests", rate: "rps" },
  http_req_failed: { rate: "errorRate" },
};

/** A k6 threshold (`http_req_duration{name:/login}: p(99)<200`) as loadlab's rule, or null. */
export function fromK6(expression: string): string | null {
  const m = K6_RULE.exec(expression.trim());
  if (!m) return null;
  const [, run, metric, braces, aggregation, op, value] = m;
  const percentile = /^p\(([\d.]+)\)$/.exec(aggregation);
  const name = metric === "http_req_duration" && percentile
    ? `p${percentile[1]}`
    : K6_AGGREGATIONS[metric][aggregation];
  if (name === undefined) return null;
  const bare = /^-?[\d.]+$/.test(value.trim());
  const unit = metric === "http_req_duration" && bare ? "ms" : "";
  return `${run !== undefined ? `${run.trim()}:` : ""}${name}${braces ?? ""}${op}${value.trim()}${unit}`;
}

/**
 * Whether `e` matches every pair: `name`, `method`, k6's `url`, or a tag (`status` picks responses; k6's
 * `scenario` is `default` outside declared ones); `targets`: origins sent to the run's target.
 */
export function selects(
  selector: Selector,
  e: Pick<EndpointResult, "name" | "method" | "tags">,
  targets?: ReadonlySet<string>,
): boolean {
  return Object.entries(selector).every(([key, value]) =>
    key === "name" || key === "url"
      ? e.name === value || urlNamed(e.name, value, targets)
      : key === "method"
      ? e.method === value
      : RESPONSE_TAGS.has(key) || (e.tags?.[key] ?? (key === "scenario" ? "default" : undefined)) === value
  );
}

/** k6's system tags: those its samples carry unless `systemTags` says otherwise, then those they do not. */
export const K6_SYSTEM_TAGS =
  ("proto subproto status method url name group check error error_code tls_version " +
    "scenario service expected_response iter vu ocsp_status ip").split(" ");

/** The system tags k6's `systemTags` (`kept`: a list of names; else k6's default) leaves off every sample. */
export const leftOutTags = (kept: unknown): Set<string> =>
  new Set(Array.isArray(kept) ? K6_SYSTEM_TAGS.filter((t) => !kept.includes(t)) : []);

/** Whether `selector` names a tag `run`'s samples do not carry: k6's submetric of it sees no sample. */
export function leavesOut(run: Pick<RunResult, "config">, selector: Selector): boolean {
  const dropped = leftOutTags((run.config?.script as { systemTags?: unknown } | undefined)?.systemTags);
  return Object.keys(selector).some((key) => dropped.has(key));
}

/** k6's tags of a response rather than of its request (a request's endpoint is not kept by them). */
const RESPONSE_TAGS = new Set(["status", "expected_response", "proto", "error_code"]);

const PROTO: Record<string, string> = { http1: "HTTP/1.1", h2: "HTTP/2.0", h2c: "HTTP/2.0" };

/** The responses `status` and `expected_response` pick, and whether unanswered ones are among them. */
function answersOf(
  selector: Selector,
  expectedStatuses?: ExpectedStatuses,
): { picks: (code: string) => boolean; unanswered: boolean } | null {
  const expected = selector.expected_response;
  // k6's error_code of an answer of status 400 and over is 1000 + its status (1404, 1500).
  const answered = Number(selector.error_code) - 1000;
  const status = selector.error_code === undefined ? selector.status : String(answered);
  if (selector.error_code !== undefined && selector.status !== undefined && selector.status !== status) {
    return { picks: () => false, unanswered: false };
  }
  if (status === undefined && expected === undefined) return null;
  return {
    picks: (code) =>
      (status === undefined || code === status) &&
      (expected === undefined || isExpectedStatus(Number(code), expectedStatuses) === (expected === "true")),
    unanswered: (status === undefined || status === "0") && expected !== "true",
  };
}

/** `e` with only the picked responses; its histogram only when every response is picked. */
function narrowed(e: EndpointResult, answers: NonNullable<ReturnType<typeof answersOf>>) {
  const statusCodes = Object.fromEntries(Object.entries(e.statusCodes).filter(([c]) => answers.picks(c)));
  const requests = sumValues(statusCodes);
  const histogramEncoded = requests === e.requests ? e.histogramEncoded : null;
  return { ...e, statusCodes, requests, errors: answers.unanswered ? e.errors : {}, histogramEncoded };
}

/** Whether `name` is loadlab's name of an unnamed request to `url` (k6 names it by its URL). */
function urlNamed(name: string, url: string, targets: ReadonlySet<string> | undefined): boolean {
  if (!url.startsWith("http://") && !url.startsWith("https://")) return false;
  const space = name.indexOf(" ");
  if (space <= 0) return false;
  const rest = name.slice(space + 1);
  if (rest === url) return true;
  if (!rest.startsWith("/")) return false;
  try {
    const u = new URL(url);
    return rest === u.pathname + u.search && (targets === undefined || targets.has(u.origin));
  } catch {
    return false;
  }
}

/** The origins whose requests went to `run`'s target: its URL's, and each a script's routes send there. */
export function targetOriginsOf(run: Pick<RunResult, "url" | "config">): Set<string> {
  const origins = new Set<string>();
  try {
    origins.add(new URL(run.url).origin);
  } catch {
    return origins;
  }
  const routes = (run.config?.script as { routes?: Record<string, string> } | undefined)?.routes ?? {};
  for (const [from, to] of Object.entries(routes)) {
    if (typeof to === "string" && URL.canParse(to) && origins.has(new URL(to).origin)) origins.add(from);
  }
  return origins;
}

/** The statuses `run`'s script expects (k6's `http.setResponseCallback`); undefined: k6's default. */
function expectedStatusesOf(run: Pick<RunResult, "config">): ExpectedStatuses | undefined {
  return (run.config?.script as { expectedStatuses?: ExpectedStatuses } | undefined)?.expectedStatuses;
}

/** What judges a run's answers: its script's expected statuses, its endpoints' own and their statuses. */
type Judged = Pick<RunResult, "config" | "statusCodes" | "endpoints">;

/**
 * `run`'s answers of a status its script (or their request, by its endpoint) does not expect; with
 * `verdict` null, those it judges not at all (`isExpectedStatus`). An endpoint's own: `{ endpoints: [e] }`.
 */
export function failedStatusOf(run: Judged, verdict: false | null = false): number {
  const expected = expectedStatusesOf(run);
  let n = judgedAs(verdict, run.statusCodes, expected);
  for (const { expectedStatuses: own, statusCodes: codes } of run.endpoints ?? []) {
    if (own) n += judgedAs(verdict, codes, own) - judgedAs(verdict, codes, expected);
  }
  return n;
}

/** Sends of `run`'s endpoints that expect no status (k6's `responseCallback: null`) left unanswered. */
export function unjudgedUnansweredOf(run: Judged): number {
  const none = (e: EndpointResult) => (e.expectedStatuses ?? expectedStatusesOf(run))?.length === 0;
  return (run.endpoints ?? []).filter(none).reduce((n, e) => n + unansweredRequests(e), 0);
}

/** `run`'s success rate (`successRateOf`) as its script and its requests judge their statuses, as k6's. */
export function judgedSuccessRate(run: Judged & Pick<RunResult, "requests" | "errors">): number {
  const failedStatus = failedStatusOf(run), skipped = unjudgedUnansweredOf(run);
  const errors = sumValues(run.errors) - skipped, unjudged = failedStatusOf(run, null) + skipped;
  return successRateOf({ requests: run.requests + skipped, errors, failedStatus, unjudged }, 0);
}

function judgedAs(verdict: false | null, codes: Record<string, number>, expected?: ExpectedStatuses) {
  let n = 0;
  for (const code in codes) if (isExpectedStatus(Number(code), expected) === verdict) n += codes[code];
  return n;
}

/** A selector as written: `{name:GET /json, tier:db}`. */
export function selectorText(selector: Selector): string {
  return `{${Object.entries(selector).map(([k, v]) => `${k}:${v}`).join(", ")}}`;
}

/**
 * Refuses (exit 2) thresholds whose selector picks no endpoint, naming those there are: a typo, caught
 * before any load. A script's endpoints are named only as it runs, so its selectors are judged after it.
 */
export function checkSelectors(
  thresholds: ReadonlyArray<{ expression: string; selector?: Selector; flag?: string }>,
  endpoints: ReadonlyArray<Pick<EndpointResult, "name" | "method" | "tags">>,
): void {
  const issues = thresholds.filter((t) => t.selector && !endpoints.some((e) => selects(t.selector!, e)))
    .map((t) => ({
      path: `${t.flag ?? "threshold"} "${t.expression}"`,
      message: `${selectorText(t.selector!)} matches no endpoint; the endpoints are ${
        endpoints.map((e) => JSON.stringify(e.name)).join(", ")
      } (select one by {name:...}, {method:...} or a tag of its requests)`,
    }));
  if (issues.length > 0) throw new ConfigError(issues);
}

/** What a selection's intervals do not know: their drain, statuses, error kinds and latency. */
// No histogram either: a p10 read from it would be the whole run's, the other endpoints' answers in it.
const NAN_MS = { histogramEncoded: undefined, p50: NaN, p75: NaN, p90: NaN, p99: NaN, mean: NaN, max: NaN };
const UNCOUNTED = { drained: 0, failedStatus: 0, unjudged: 0, errorKinds: undefined, ...NAN_MS };

/** The run as the selected endpoints make it (interval latency NaN); null when none matches. */
export function selectedRun(run: RunResult, selector: Selector): RunResult | null {
  const targets = targetOriginsOf(run);
  const matched = leavesOut(run, selector)
    ? []
    : (run.endpoints ?? []).filter((e) => selects(selector, e, targets));
  // A failure's own error_code (a refused connect's 1212) is not kept per endpoint: unmatched, not 0.
  const code = selector.error_code === undefined ? 1400 : Number(selector.error_code);
  if (matched.length === 0 || !(code >= 1400 && code < 1600)) return null;
  const expected = expectedStatusesOf(run), answers = answersOf(selector, expected);
  const otherProto = selector.proto !== undefined && selector.proto !== PROTO[run.protocol ?? "http1"];
  const chosen = otherProto
    ? []
    : answers === null
    ? matched
    : matched.map((e) => narrowed(e, answersOf(selector, e.expectedStatuses ?? expected)!))
      .filter((e) => e.requests + sumValues(e.errors) > 0);
  const unmeasured = chosen.some((e) => e.requests > 0 && e.histogramEncoded === null);
  const errors: Record<string, number> = {}, statusCodes: Record<string, number> = {};
  for (const e of chosen) addCounts(errors, e.errors), addCounts(statusCodes, e.statusCodes);
  const requests = chosen.reduce((a, e) => a + e.requests, 0);
  const encodings = chosen.flatMap((e) => e.histogramEncoded === null ? [] : [e.histogramEncoded]);
  const histogram = encodings.length === 1 ? decodeHistogram(encodings[0]) : mergeEncoded(encodings);
  const intervals = run.intervals.map((iv, k) => ({
    ...iv,
    requests: chosen.reduce((a, e) => a + (e.intervals.requests[k] ?? 0), 0),
    errors: chosen.reduce((a, e) => a + (e.intervals.errors[k] ?? 0), 0),
    ...UNCOUNTED,
  }));
  return {
    ...run,
    endpoints: chosen,
    intervals,
    requests,
    errors,
    statusCodes,
    successRate: judgedSuccessRate({ config: run.config, statusCodes, endpoints: chosen, requests, errors }),
    rps: run.durationSec > 0 ? requests / run.durationSec : 0,
    latencyMs: unmeasured ? unmeasuredMs(summarizeMs(histogram)) : summarizeMs(histogram),
    histogramEncoded: encodeHistogram(histogram),
  };
}
