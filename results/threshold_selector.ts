/**
 * @module
 * Thresholds on some endpoints of a run: a selector in braces after the metric, `p99{name:GET /json}<200ms`
 * or `errorRate{tier:db}<1%`, picks the endpoints whose `name`, `method` or user tag has the given value
 * (every `key:value` of the braces must match; commas separate them; a value may be quoted). k6's form is the
 * same rule: `http_req_duration{name:/login}: p(99)<200` (or without the colon), with k6's metrics
 * `http_req_duration` (p(N), avg, med, min, max), `http_reqs` (count, rate) and `http_req_failed` (rate),
 * written in loadlab's terms by `fromK6`; a `name` that is an absolute URL also picks the requests to it left
 * unnamed, as k6 names them by their URL (a path-named endpoint only for an origin sent to the run's target,
 * `targetOriginsOf`). The endpoints a selector picks pool into one view of the run
 * (`selectedRun`): their requests, failures and added histograms, as k6 pools the requests of one tag; k6's
 * `url` picks unnamed requests by their URL, `status` and `expected_response` some responses of those
 * endpoints (counts exact, latency only where every response of an endpoint is picked). A selector that picks
 * nothing is a configuration error naming the known endpoints (`checkSelectors`, called before any load).
 * Pure.
 */
import type { EndpointResult, RunResult } from "./mod.ts";
import { decodeHistogram, mergeEncoded, summarizeMs } from "./histogram.ts";
import { addCounts, successRateOf, sumValues } from "./interval_counts.ts";
import { ConfigError } from "../validation/config_error.ts";

/** `key:value` pairs an endpoint must all match: `name`, `method`, or a user tag. */
export type Selector = Record<string, string>;

/** The metrics that exist per endpoint (not the open model's late and dropped sends). */
export const ENDPOINT_METRICS = new Set([
  "min",
  "mean",
  "avg",
  "stdev",
  "p50",
  "median",
  "p75",
  "p90",
  "p95",
  "p99",
  "p99.9",
  "p999",
  "p99.99",
  "max",
  "success",
  "successRate",
  "errorRate",
  "rps",
  "requests",
  "errors",
  "failedStatus",
  "non2xx",
]);

const BRACES = /\{([^{}]*)\}/;

/** The expression without its selector, and the selector (undefined when there are no braces). */
export function splitSelector(expression: string): { rest: string; selector?: Selector; problem?: string } {
  const m = BRACES.exec(expression);
  if (!m) return { rest: expression };
  const rest = expression.slice(0, m.index) + expression.slice(m.index + m[0].length);
  const selector: Selector = {};
  for (const part of m[1].split(",")) {
    const colon = part.indexOf(":");
    const key = part.slice(0, colon).trim();
    const value = unquote(part.slice(colon + 1).trim());
    if (colon < 0 || key === "" || value === "") {
      return { rest, problem: `selector {${m[1]}}: write {name:GET /json}, {method:POST} or {tag:value}` };
    }
    selector[key] = value;
  }
  return { rest, selector };
}

function unquote(text: string): string {
  const q = text[0];
  return (q === '"' || q === "'") && text.endsWith(q) && text.length >= 2 ? text.slice(1, -1) : text;
}

const K6_RULE =
  /^(?:([^:<>={}]+):)?\s*(http_req_duration|http_reqs|http_req_failed)\s*(\{[^{}]*\})?\s*:?\s*([a-z]+(?:\([\d.]+\))?)\s*(<=|>=|==|<|>)\s*(.+)$/;

/** k6's aggregations in loadlab's metric names, per k6 metric. */
const K6_AGGREGATIONS: Record<string, Record<string, string>> = {
  http_req_duration: { avg: "mean", med: "p50", min: "min", max: "max" },
  http_reqs: { count: "requests", rate: "rps" },
  http_req_failed: { rate: "errorRate" },
};

/**
 * A k6 threshold (`http_req_duration{name:/login}: p(99)<200`) written as loadlab's one-line rule
 * (`p99{name:/login}<200ms`), or null when `expression` is not in k6's form. k6's durations are ms.
 */
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
 * Whether endpoint `e` matches every pair of `selector`: `name`, `method`, k6's `url` (an unnamed request's
 * URL) or a tag of its requests; k6's `status` and `expected_response` pick its responses (`answersOf`).
 * `targets` are the origins sent to the run's target (`targetOriginsOf`); unknown: any origin's.
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
      : RESPONSE_TAGS.has(key) || e.tags?.[key] === value
  );
}

/**
 * k6's tags of a response rather than of its request: `status` and `expected_response` pick some of an
 * endpoint's responses, `proto` all of the run's or none (one protocol a run).
 */
const RESPONSE_TAGS = new Set(["status", "expected_response", "proto", "error_code"]);

/** k6's `proto` tag of a run's requests. */
const PROTO: Record<string, string> = { http1: "HTTP/1.1", h2: "HTTP/2.0", h2c: "HTTP/2.0" };

/**
 * The responses `status` and `expected_response` pick, by status code, and whether requests that got none
 * are among them (k6 tags them status 0, not expected); null when the selector has neither.
 */
function answersOf(selector: Selector): { picks: (code: string) => boolean; unanswered: boolean } | null {
  const expected = selector.expected_response;
  // k6's error_code of an answer of status 400 and over is 1000 + its status (1404, 1500).
  const answered = Number(selector.error_code) - 1000;
  const status = selector.error_code === undefined ? selector.status : String(answered);
  if (selector.error_code !== undefined && selector.status !== undefined && selector.status !== status) {
    return { picks: () => false, unanswered: false };
  }
  if (status === undefined && expected === undefined) return null;
  const isExpected = (code: string) => Number(code) >= 200 && Number(code) < 400;
  return {
    picks: (code) =>
      (status === undefined || code === status) &&
      (expected === undefined || isExpected(code) === (expected === "true")),
    unanswered: (status === undefined || status === "0") && expected !== "true",
  };
}

/**
 * Endpoint `e` with only the responses `answers` picks: their counts, and its histogram when every response
 * it had is picked (latencies are kept per endpoint, not per status: else null, the latency unmeasured).
 */
function narrowed(e: EndpointResult, answers: NonNullable<ReturnType<typeof answersOf>>) {
  const statusCodes = Object.fromEntries(Object.entries(e.statusCodes).filter(([c]) => answers.picks(c)));
  const requests = sumValues(statusCodes);
  const errors = answers.unanswered ? e.errors : {};
  return {
    ...e,
    statusCodes,
    requests,
    errors,
    histogramEncoded: requests === e.requests ? e.histogramEncoded : null,
  };
}

/**
 * Whether `name` is how loadlab names a request to absolute `url` left unnamed: `METHOD /path?query` (an
 * origin of `targets`, sent to the run's target) or `METHOD url` (another origin). k6 names such a
 * request by its URL, so k6's `{name:http://host/post}` selects it (k6's thresholds.js).
 */
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

/**
 * The origins whose requests went to `run`'s target, named by path: its URL's, and each origin a script's
 * routes send there (`--target app=URL` sends the one the script spells).
 */
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

/** A selector as written: `{name:GET /json, tier:db}`. */
export function selectorText(selector: Selector): string {
  return `{${Object.entries(selector).map(([k, v]) => `${k}:${v}`).join(", ")}}`;
}

/**
 * Refuses (exit 2, before any load) thresholds whose selector picks none of `endpoints`, naming the
 * endpoints there are.
 */
export function checkSelectors(
  thresholds: ReadonlyArray<{ expression: string; selector?: Selector }>,
  endpoints: ReadonlyArray<Pick<EndpointResult, "name" | "method" | "tags">>,
): void {
  const issues = thresholds.filter((t) => t.selector && !endpoints.some((e) => selects(t.selector!, e)))
    .map((t) => ({
      path: `threshold "${t.expression}"`,
      message: `${selectorText(t.selector!)} matches no endpoint; the endpoints are ${
        endpoints.map((e) => JSON.stringify(e.name)).join(", ")
      } (select one by {name:...}, {method:...} or a tag of its requests)`,
    }));
  if (issues.length > 0) throw new ConfigError(issues);
}

/**
 * The run as the selected endpoints make it: their requests, failures, rate over the run's duration and
 * added histograms pooled, and their interval counts (an interval's latency is the run's only, so it
 * is NaN here); null when no endpoint matches (or the file has none).
 */
export function selectedRun(run: RunResult, selector: Selector): RunResult | null {
  const targets = targetOriginsOf(run);
  const matched = (run.endpoints ?? []).filter((e) => selects(selector, e, targets));
  // A failure's own error_code (a refused connect's 1212) is not kept per endpoint: unmatched, not 0.
  const code = Number(selector.error_code);
  if (matched.length === 0 || (selector.error_code !== undefined && !(code >= 1400 && code < 1600))) {
    return null;
  }
  const answers = answersOf(selector);
  const otherProto = selector.proto !== undefined && selector.proto !== PROTO[run.protocol ?? "http1"];
  const chosen = otherProto
    ? []
    : answers === null
    ? matched
    : matched.map((e) => narrowed(e, answers)).filter((e) => e.requests + sumValues(e.errors) > 0);
  // A latency over some of an endpoint's responses is not kept: unmeasured (NaN), never the wrong one.
  const unmeasured = chosen.some((e) => e.requests > 0 && e.histogramEncoded === null);
  const errors: Record<string, number> = {};
  const statusCodes: Record<string, number> = {};
  for (const e of chosen) {
    addCounts(errors, e.errors);
    addCounts(statusCodes, e.statusCodes);
  }
  const requests = chosen.reduce((a, e) => a + e.requests, 0);
  const non2xx = Object.entries(statusCodes).reduce((a, [c, n]) => (c < "200" || c >= "400" ? a + n : a), 0);
  const encodings = chosen.flatMap((e) => e.histogramEncoded === null ? [] : [e.histogramEncoded]);
  const histogram = encodings.length === 1 ? decodeHistogram(encodings[0]) : mergeEncoded(encodings);
  // The endpoints' own counts per interval; their latency per interval is not kept (NaN: unmeasured).
  const intervals = run.intervals.map((iv, k) => ({
    ...iv,
    requests: chosen.reduce((a, e) => a + (e.intervals.requests[k] ?? 0), 0),
    errors: chosen.reduce((a, e) => a + (e.intervals.errors[k] ?? 0), 0),
    drained: 0,
    failedStatus: 0,
    errorKinds: undefined,
    p50: Number.NaN,
    p75: Number.NaN,
    p90: Number.NaN,
    p99: Number.NaN,
    mean: Number.NaN,
    max: Number.NaN,
  }));
  return {
    ...run,
    intervals,
    requests,
    errors,
    statusCodes,
    successRate: successRateOf({ requests, errors: sumValues(errors), failedStatus: non2xx }, 0),
    rps: run.durationSec > 0 ? requests / run.durationSec : 0,
    latencyMs: unmeasured ? nanSummary(summarizeMs(histogram)) : summarizeMs(histogram),
  };
}

function nanSummary<T extends object>(summary: T): T {
  return Object.fromEntries(Object.keys(summary).map((k) => [k, Number.NaN])) as T;
}
