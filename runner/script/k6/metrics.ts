/**
 * @module
 * k6's `k6/metrics`; each isolate sends what was added as an iteration ends or a VU sleeps, to the main one.
 */
import { type Iteration, jsonPointTags, leftOut, requestTags, tagValue } from "./tags.ts";
import { PHASES, phasesOf, point, pointsOut, type RequestHop } from "./points_out.ts";
import { k6Thresholds } from "../../../results/thresholds/selector.ts";
import { atRunEnd } from "../run_state.ts";
import { inputs, METRICS_CHANNEL, runChannel } from "../isolate_inputs.ts";
import { inInit } from "./init_files.ts";
import type { Response } from "../session.ts";

/** What one isolate added to a metric since its last send. */
export interface MetricPart {
  name: string;
  kind: "trend" | "counter" | "rate" | "gauge";
  /** A trend of times in ms (`new Trend(name, true)`): k6's summary shows its values as durations. */
  time: boolean;
  /** Trend values, or the gauge's last value, its least and its greatest. */
  values: number[];
  sum: number;
  trues: number;
  count: number;
}

type Kind = MetricPart["kind"];
type Tags = Readonly<Record<string, string>>;

const parts = new Map<string, MetricPart>();
let channel: BroadcastChannel | null = null;

/** Sends what was added since the last send (nothing when nothing was). */
export function flushMetrics(): void {
  if (parts.size === 0) return;
  channel ??= runChannel(METRICS_CHANNEL);
  Atomics.add(inputs.metricSends, 0, 1);
  channel.postMessage([...parts.values()]);
  parts.clear();
}

/** Least time between two sends as iterations end (ms): a send costs about 7 us, an iteration maybe 10. */
const SEND_EVERY_MS = 50;
let nextSendMs = 0;

/** Sends what was added unless a send went less than `SEND_EVERY_MS` ago (the run's end sends the rest). */
export function flushMetricsSoon(): void {
  const nowMs = performance.now();
  if (parts.size === 0 || nowMs < nextSendMs) return;
  nextSendMs = nowMs + SEND_EVERY_MS;
  flushMetrics();
}

atRunEnd(flushMetrics);

/** k6's rule for a metric's name (its registry); k6 refuses any other name when the metric is made. */
const NAME = /^[a-zA-Z_][a-zA-Z0-9_]{1,128}$/;

/** The kind each name is registered with: k6's built-in metrics, then the script's. */
const kinds = new Map<string, Kind>(
  Object.entries({
    counter: "http_reqs iterations data_sent data_received dropped_iterations",
    rate: "http_req_failed checks",
    gauge: "vus vus_max",
    trend: ["http_req_duration", ...PHASES, "iteration_duration", "group_duration"].join(" "),
  }).flatMap(([kind, names]) => names.split(" ").map((n) => [n, kind as Kind])),
);

/** k6's built-in metrics, counted by the run (k6/ws's `ws_*` are counted through this module). */
const BUILT_IN = new Set(kinds.keys());
/** Refuses a name k6 refuses; a script's metric named as a built-in adds to it, as k6's. */
function register(name: unknown, kind: Kind, time: boolean): string {
  if (!inInit()) {
    throw new TypeError(
      // Not named: a script making one a name an iteration would count an error message of each.
      "a metric is made after the script's init code: as k6, " +
        "metrics are made at the script's top level, once (k6 refuses one made in an iteration, setup or " +
        "teardown: each iteration made another, without bound)",
    );
  }
  if (typeof name !== "string" || !NAME.test(name)) {
    const shown = JSON.stringify(String(name).slice(0, 60));
    throw new TypeError(
      `invalid metric name ${shown}: a metric's name is 2 to 129 ASCII letters, digits or _, not starting ` +
        "with a digit (k6's rule)",
    );
  }
  const taken = kinds.get(name), builtIn = BUILT_IN.has(name);
  const timed = builtIn ? taken === "trend" : made.get(name)?.time;
  const contains = name.startsWith("data_") && builtIn ? "data" : timed ? "time" : "default";
  if (taken !== undefined && (taken !== kind || contains !== (time ? "time" : "default"))) {
    const was = taken !== kind ? `type ${taken}` : `a value type ${contains}`;
    throw new TypeError(`metric '${name}' already exists but with ${was}: give this ${kind} another name`);
  }
  if (taken === undefined && kinds.size - BUILT_IN.size >= MAX_SCRIPT_METRICS) {
    throw new TypeError(
      `metric ${name} is past the ${MAX_SCRIPT_METRICS.toLocaleString("en-US")} custom metrics loadlab ` +
        "keeps apart (each a line of k6's summary and a series of the metrics outputs): tell values apart " +
        "by tags, not by metrics of their own",
    );
  }
  kinds.set(name, kind);
  return name;
}

/** Most custom metrics a script makes (k6 has no bound; each is a summary line and an output series). */
const MAX_SCRIPT_METRICS = 1_000;

/** The metrics the script made in this isolate: their kind and whether a trend holds times. */
const made = new Map<string, { kind: Kind; time: boolean }>();

/** The script's own metrics by name, read by the main isolate to judge thresholds as k6 does. */
export function madeMetrics(): Record<string, { kind: Kind; time: boolean }> {
  return Object.fromEntries(made);
}

/** The aggregations a threshold may judge a metric of each kind by, as k6 takes them. */
const AGGREGATIONS = {
  counter: "count, rate",
  gauge: "value",
  rate: "rate",
  trend: "avg, min, max, med, p(N)",
};
const ANY_AGGREGATION = new Set(Object.values(AGGREGATIONS).join(", ").split(", "));

/** Why k6 refuses threshold `rule` on `metric` (a metric unknown, another kind's aggregation), else null. */
export function thresholdProblem(metric: string, rule: string, made: Record<string, { kind: Kind }>) {
  const kind = kinds.get(metric) ?? made[metric]?.kind;
  // k6's metrics of modules this script does not import (made when imported: k6/ws's here).
  if (kind === undefined && /^(ws|grpc|browser)_/.test(metric)) return null;
  if (kind === undefined) {
    return `no metric named "${metric}": neither one of k6's nor made by the script (make it in the init ` +
      `code, e.g. new Counter("${metric}"))`;
  }
  const aggregation = /^\s*(p\(|[a-z]*)/.exec(rule)![1];
  const named = aggregation === "p(" ? "p(N)" : aggregation;
  // A word that is no aggregation of any kind is left to the rule's parser, which says what it reads.
  return AGGREGATIONS[kind].split(", ").includes(named) ||
      (named !== "" && !ANY_AGGREGATION.has(named))
    ? null
    : `${rule.trim()}: a ${kind} is judged by ${AGGREGATIONS[kind]}, not ${aggregation || "nothing"}`;
}

/** The URLs thresholds select by `url` or `name`, and each without its query or fragment. */
const thresholdUrls = new Set<string>();

/**
 * The name of a request tagged `url` when thresholds select by URL: its URL (k6's tag, query and all) when
 * one names it or its path, so neither counts a request of another query; else undefined (`METHOD path`).
 */
export function urlName(url: string): string | undefined {
  return thresholdUrls.size > 0 && thresholdUrls.has(url.split(/[?#]/, 1)[0]) ? url : undefined;
}

/** The submetrics the script's thresholds name (`pages{kind:html}`), by metric: the tags each picks. */
const wanted = new Map<string, Submetric[]>();
type Submetric = { name: string; tags: Array<[string, string]> };
/** An iteration's end to the `iterations` submetrics kept, by the tags it ends with (its VU's too): null
 * when thresholds name none. */
export let countTaggedIteration: ((at: Iteration) => void) | null = null;

/** Keeps the submetrics `options.thresholds` names: a value with their tags adds to each, as k6's. */
export function wantSubmetrics(thresholds: unknown): void {
  wanted.clear(), thresholdUrls.clear();
  for (const { key, rules, metric, inner, tags: pairs } of k6Thresholds(thresholds)) {
    if (metric === undefined) continue;
    for (const [k, v] of pairs) {
      if ((k === "url" || k === "name") && /^https?:/.test(v)) thresholdUrls.add(v.split(/[?#]/, 1)[0]);
    }
    // abortOnFail's checks (any tags) and request durations by tag are sent too: judged live in the main.
    const live = (metric === "checks" || metric === "http_req_duration" && inner !== undefined) &&
      rules.some((t) => Boolean(t.abortOnFail));
    if (inner === undefined && !live) continue;
    const tags = pairs.filter(([k, v]) => k !== "" || v !== "");
    // A tag the run's samples leave out: the submetric sees no value, as k6's.
    if (tags.some(([k]) => leftOut.has(k))) continue;
    // The run's results count checks by scenario, group and name; by any other tag they are kept here.
    const ownChecks = metric === "checks" && (live || tags.some(([k]) => !RESULT_CHECK_TAGS.has(k)));
    // iteration_duration's: the runtime times iterations under minIterationDuration (the pause left out).
    // iterations by a tag but the scenario's (a VU's own, exec.vu.metrics.tags): counted as iterations end.
    const kept = ownChecks || live || metric === GROUP_DURATION || metric === ITERATION_DURATION ||
      PHASES.includes(metric) || (metric === "iterations" && tags.some(([k]) => k !== "scenario"));
    if (BUILT_IN.has(metric) && !kept) continue;
    const list = wanted.get(metric) ?? [];
    list.push({ name: key.trim(), tags });
    wanted.set(metric, list);
  }
  const counted = wanted.get("iterations");
  countTaggedIteration = counted ? (at) => addToEach(counted, "counter", false, 1, jsonPointTags(at)) : null;
}

/** What this isolate added to metric (or submetric) `name` since its last send, made on first use. */
function partOf(name: string, kind: Kind, time: boolean): MetricPart {
  let part = parts.get(name);
  if (part === undefined) {
    parts.set(name, part = { name, kind, time, values: [], sum: 0, trues: 0, count: 0 });
  }
  return part;
}

/** Adds `v` to metric `name` of this isolate (an Artillery script's hooks send theirs this way too). */
export function addValue(name: string, kind: Kind, time: boolean, v: number): void {
  addTo(partOf(name, kind, time), v);
}

function addTo(part: MetricPart, v: number): void {
  part.count++, part.sum += v;
  if (v !== 0) part.trues++;
  if (part.kind === "trend") part.values.push(v);
  else if (part.kind === "gauge") {
    const [, min, max] = part.values;
    part.values = part.values.length === 0 ? [v, v, v] : [v, Math.min(min, v), Math.max(max, v)];
  }
}

/** A metric of its class's `kind`: k6's four differ in nothing else here. */
class Metric {
  static readonly kind: Kind;
  readonly name: string;
  readonly kind: Kind;
  readonly time: boolean;
  constructor(name: string, isTime?: unknown) {
    const kind = this.kind = (new.target as typeof Metric).kind;
    // As k6: any truthy second argument makes a trend a time trend.
    this.time = kind === "trend" && Boolean(isTime);
    this.name = register(name, kind, this.time);
    if (!made.get(this.name)?.time) made.set(this.name, { kind, time: this.time });
  }

  /**
   * As k6: a value that is no number (none, null, NaN, "abc") is not added but said once, and add() answers
   * false; a truthy value that reads as 0 ("0", " ", []) adds 1, as true does.
   */
  add(value: number | boolean, tags?: Record<string, string>): boolean {
    let v = Number(value);
    if (value === null || value === undefined || Number.isNaN(v)) return this.#refuse(value);
    if (v === 0 && value) v = 1;
    for (const key in tags) tagValue(key, tags[key]);
    addTo(partOf(this.name, this.kind, this.time), v);
    if (pointsOut) point(this.name, this.kind, this.time, v, { ...jsonPointTags(), ...tags });
    const subs = wanted.get(this.name);
    if (subs !== undefined) {
      addToEach(subs, this.kind, this.time, v, requestTags(tags, undefined, true));
    }
    return true;
  }

  #refuse(value: unknown): false {
    if (warned.has(this.name)) return false;
    warned.add(this.name);
    const shown = value === undefined ? "no value" : `'${String(value).slice(0, 60)}'`;
    console.warn(
      `${shown} is an invalid value for metric '${this.name}', a number or a boolean value is expected: not added`,
    );
    return false;
  }
}

/** Adds `v` to each of `subs` whose tags are among `tags`. */
function addToEach(subs: readonly Submetric[], kind: Kind, time: boolean, v: number, tags: Tags = {}): void {
  for (const sub of subs) {
    if (sub.tags.every(([k, t]) => tags[k] === t)) addTo(partOf(sub.name, kind, time), v);
  }
}

const GROUP_DURATION = "group_duration",
  DURATION = "http_req_duration",
  ITERATION_DURATION = "iteration_duration";
const RESULT_CHECK_TAGS = new Set(["scenario", "group", "check"]);

/** A check's outcome for the `checks{...}` submetrics by other tags: its own tags over the request's. */
export function addCheck(name: string, ok: boolean, tags: Record<string, string> | undefined): void {
  const subs = wanted.get("checks");
  if (subs) addToEach(subs, "rate", false, +ok, { ...jsonPointTags(), ...tags, check: name });
}

/** Adds a group's duration to `group_duration` tagged `::api`, or with no group to `iteration_duration`. */
export function addGroupDuration(durationMs: number, group?: string): void {
  const name = group === undefined ? ITERATION_DURATION : GROUP_DURATION;
  addTo(partOf(name, "trend", true), durationMs);
  const subs = wanted.get(name);
  // An iteration's tags are its scenario's and the run's, at the root group, as k6's.
  if (subs) {
    addToEach(subs, "trend", true, durationMs, group ? requestTags(undefined, group) : jsonPointTags());
  }
  if (pointsOut && group !== undefined) point(name, "trend", true, durationMs, { ...jsonPointTags(), group });
}

/**
 * Adds the phases of `raw` (measured: its `waitingMs` a number) to k6's phase trends; to the submetrics
 * thresholds name by its tags and k6's `name`, `method`, `status` and `url` (a given name, as k6's).
 */
export function addPhases(raw: Response, { tags, verb: method, url, name }: RequestHop): void {
  const phaseMs = phasesOf(raw);
  let all: Record<string, string> | undefined;
  // After the phases, the request's duration (k6's: sending, waiting, receiving) to its submetrics only.
  for (let k = 0; k <= PHASES.length; k++) {
    const v = k < PHASES.length ? phaseMs[k] : phaseMs[3] + phaseMs[4] + phaseMs[5];
    // The duration too when the script adds to it (its summary is then this module's, not the run's).
    if (k < PHASES.length || made.has(DURATION)) addTo(partOf(PHASES[k] ?? DURATION, "trend", true), v);
    const subs = wanted.get(PHASES[k] ?? DURATION);
    all ??= subs && { ...tags, name: name ?? url, method, status: String(raw.status), url: name ?? url };
    if (subs !== undefined) addToEach(subs, "trend", true, v, all);
  }
}

/** Metrics whose invalid value was said already: once each. */
const warned = new Set<string>();

export class Trend extends Metric {
  static override readonly kind = "trend";
}
export class Counter extends Metric {
  static override readonly kind = "counter";
}
export class Rate extends Metric {
  static override readonly kind = "rate";
}
export class Gauge extends Metric {
  static override readonly kind = "gauge";
}

export default { Trend, Counter, Rate, Gauge };
