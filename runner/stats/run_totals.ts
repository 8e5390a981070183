/**
 * @module
 * The run's totals in the main isolate, added from every worker's sample as it arrives, then its statistics.
 */

import type { EndpointResult, ErrorKind, IntervalResult, RunResult } from "../../results/mod.ts";
import {
  addCounters,
  addCounts,
  emptyCounters,
  successRateOf,
  sumValues,
} from "../../results/interval_counts.ts";
import {
  addEncoded,
  createHistogram,
  encodeHistogram,
  firstMessageBlock,
  type Histogram,
  latencyBlock,
  percentileCurve,
  summarizeMs,
} from "../../results/histogram.ts";
import type { EndpointSample, IntervalSample } from "./sample.ts";
import { MAX_MESSAGE_CHARS_PER_KIND, OTHER_MESSAGES } from "../../results/schema/keys.ts";
import { detectStabilization } from "../../results/conclude/stabilization.ts";
import { generatorSaturation } from "../../results/conclude/generator_saturation.ts";
import { saturated, servedRps, verdict } from "../../results/conclude/served_rate.ts";
import {
  addEndpointPart,
  emptyEndpointTotals,
  endpointResult,
  type EndpointTotals,
} from "../../results/endpoint_totals.ts";
import { MAX_ENDPOINTS, OTHER_ENDPOINT, taggedKey } from "../endpoint_limits.ts";

/** What the totals keep besides the counts (aggregate.ts `AggregatorOptions` holds these too). */
export interface RunTotalsOptions {
  uncorrected: boolean;
  /** Keep each interval's merged histogram encoding for the results (default true); each endpoint's too. */
  intervalHistograms?: boolean | "endpoints";
  /** The run's endpoints, index for index with the samples' `endpoints`; absent: none kept. */
  endpoints?: ReadonlyArray<{ name: string; method: string; tags: Record<string, string>; requests: number }>;
  /** Endpoints named at run time (a script's), added by name up to `MAX_ENDPOINTS`; `endpoints` is empty. */
  namedEndpoints?: boolean;
}

/** The totals of a run, summed over every sample of every worker in whatever order they arrive. */
export class RunTotals {
  readonly #total: Histogram = createHistogram();
  readonly #rawTotal: Histogram | null;
  readonly #connectTotal: Histogram = createHistogram();
  readonly #tlsTotal: Histogram = createHistogram();
  /** Streamed answers' first messages (gRPC server streams); made on the first sample that has one. */
  #firstMessageTotal: Histogram | null = null;
  readonly #c = emptyCounters();
  readonly #statusCodes: Record<string, number> = {};
  readonly #errors: Partial<Record<ErrorKind, number>> = {};
  readonly #errorMessages: Record<string, Record<string, number>> = {};
  /** The characters of each kind's kept messages, bounded by `MAX_MESSAGE_CHARS_PER_KIND` over the run. */
  readonly #messageChars: Record<string, number> = {};
  /** Per endpoint of a run of several (the samples' `endpoints` added in); one endpoint is the run. */
  readonly #endpoints: EndpointTotals[];
  /** Endpoints named at run time: totals by name, kept in `#endpoints` too (first-seen order). */
  readonly #named: Map<string, EndpointTotals> | null;
  /** Each endpoint's interval histograms kept too (`intervalHistograms: endpoints`). */
  readonly #perEndpoint: boolean;

  constructor(opts: RunTotalsOptions) {
    this.#rawTotal = opts.uncorrected ? createHistogram() : null;
    this.#endpoints = (opts.endpoints ?? []).map((e) =>
      emptyEndpointTotals({ name: e.name, method: e.method, tags: e.tags, pooledRequests: e.requests })
    );
    this.#named = opts.namedEndpoints ? new Map() : null;
    this.#perEndpoint = opts.intervalHistograms === "endpoints";
  }

  add(sample: IntervalSample): void {
    addCounters(this.#c, sample);
    addCounts(this.#statusCodes, sample.statusCodes);
    addCounts(this.#errors, sample.errors);
    for (const [kind, messages] of Object.entries(sample.errorMessages)) {
      const into = this.#errorMessages[kind] ??= {};
      for (const [message, count] of Object.entries(messages)) {
        const chars = (this.#messageChars[kind] ?? 0) + message.length;
        const kept = message in into || (message !== OTHER_MESSAGES && chars <= MAX_MESSAGE_CHARS_PER_KIND);
        if (kept && !(message in into)) this.#messageChars[kind] = chars;
        const key = kept ? message : OTHER_MESSAGES;
        into[key] = (into[key] ?? 0) + count;
      }
    }
    if (sample.requests > 0) addEncoded(this.#total, sample.histogram);
    if (this.#rawTotal !== null && sample.uncorrectedHistogram !== null && sample.requests > 0) {
      addEncoded(this.#rawTotal, sample.uncorrectedHistogram);
    }
    if (sample.connectHistogram !== null) addEncoded(this.#connectTotal, sample.connectHistogram);
    if (sample.tlsHistogram !== null) addEncoded(this.#tlsTotal, sample.tlsHistogram);
    if (sample.firstMessageHistogram !== undefined) {
      addEncoded(this.#firstMessageTotal ??= createHistogram(), sample.firstMessageHistogram);
    }
    for (const part of sample.endpoints ?? []) {
      const into = part.name === undefined ? this.#endpoints[part.endpoint] : this.#namedTotals(part);
      if (into !== undefined) {
        addEndpointPart(into, part, sample.index, [part.requests], [sumValues(part.errors)]);
      }
    }
  }

  /** The totals of a run-time endpoint (its name, tags and own statuses), added up to `MAX_ENDPOINTS`. */
  #namedTotals(
    part: Pick<EndpointSample, "name" | "tags" | "method" | "expectedStatuses">,
  ): EndpointTotals | undefined {
    const named = this.#named, name = part.name ?? OTHER_ENDPOINT;
    if (named === null) return undefined;
    const key = taggedKey(name, part.tags, part.expectedStatuses, part.method);
    let t = named.get(key);
    if (t !== undefined) return t;
    if (named.size >= MAX_ENDPOINTS && name !== OTHER_ENDPOINT) {
      return this.#namedTotals({ name: OTHER_ENDPOINT });
    }
    t = emptyEndpointTotals({ ...part, name });
    if (this.#perEndpoint) t.intervalEncodings = [];
    named.set(key, t);
    this.#endpoints.push(t);
    return t;
  }

  /** Each endpoint's responses in intervals `first` to `end` (not included); empty for a run of one. */
  endpointRequestsIn(first: number, end: number): Array<{ name: string; requests: number }> {
    if (this.#endpoints.length < 2) return [];
    return this.#endpoints.map((t) => {
      let requests = 0;
      for (let index = first; index < end; index++) requests += t.intervalRequests[index] ?? 0;
      return { name: t.name, requests };
    });
  }

  requests(): number {
    return this.#c.requests;
  }

  /** Failed requests so far, every kind. */
  errors(): number {
    return sumValues(this.#errors);
  }

  /** The statistics part of a `RunResult` over `durationSec` (measured) and its laid-out `intervals`. */
  stats(durationSec: number, requestedRps: number | null, intervals: IntervalResult[]) {
    const c = this.#c;
    const errors = sumValues(this.#errors);
    const sends = c.requests + errors + c.droppedSends + c.unfinished;
    const raw = this.#rawTotal;
    const served = { rps: servedRps(c.requests, c.drained, durationSec), targetRps: requestedRps };
    const full = saturated({ ...served, durationSec, intervals });
    return {
      requests: c.requests,
      drained: c.drained,
      rps: served.rps,
      successRate: successRateOf({ ...c, errors }, 0),
      ...(c.unjudged > 0 ? { unjudged: c.unjudged } : {}),
      ...latencyBlock(this.#total),
      uncorrectedLatencyMs: raw === null ? null : summarizeMs(raw),
      uncorrectedPercentiles: raw === null ? null : percentileCurve(raw),
      ...(raw === null ? {} : { uncorrectedHistogramEncoded: encodeHistogram(raw) }),
      ...firstMessageBlock(this.#firstMessageTotal),
      statusCodes: { ...this.#statusCodes },
      errors: { ...this.#errors },
      errorMessages: structuredClone(this.#errorMessages),
      bytesRead: c.bytesRead,
      bytesWritten: c.bytesWritten,
      lateSends: c.lateSends,
      droppedSends: c.droppedSends,
      ...verdict(c.lateSends, c.serverBoundSends, sends, full, generatorSaturation(intervals)?.bound),
      connects: c.connects,
      reconnects: c.reconnects,
      retried: c.retried,
      unfinished: c.unfinished,
      connectTimeMs: summaryMs(this.#connectTotal),
      tlsMs: summaryMs(this.#tlsTotal),
      intervals,
      stabilizedAtMs: detectStabilization(intervals, requestedRps),
      ...(this.#endpoints.length > 0 ? { endpoints: this.#endpointResults(intervals) } : {}),
    };
  }

  /** Each endpoint's result; a run of one endpoint has the run's own numbers under its name. */
  #endpointResults(intervals: IntervalResult[]): EndpointResult[] {
    if (this.#endpoints.length > 1 || this.#named !== null) {
      return this.#endpoints.map((t) => endpointResult(t, intervals.length));
    }
    const only = this.#endpoints[0];
    const c = this.#c;
    const part = { ...c, errors: this.#errors, statusCodes: this.#statusCodes, histogram: null };
    addEndpointPart(only, part, 0, intervals.map((i) => i.requests), intervals.map((i) => i.errors));
    only.histogram = this.#total;
    return [endpointResult(only, intervals.length)];
  }
}

/** min/mean/max/p99 in ms of a histogram of µs; null when it holds nothing. */
function summaryMs(h: Histogram): RunResult["connectTimeMs"] {
  if (h.totalCount === 0) return null;
  const { min, mean, max, p99 } = summarizeMs(h);
  return { min, mean, max, p99 };
}
