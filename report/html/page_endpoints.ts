/**
 * @module
 * A run's endpoints as report.html embeds them: the figures of each (report/endpoint_rows.ts, slowest
 * p99 first) and its HDR percentile curve, decoded from its encoded histogram here so the page carries
 * points, not encodings. Pure.
 */
import type { RunResult } from "../../results/mod.ts";
import { decodeHistogram, percentileCurve } from "../../results/histogram.ts";
import { round4 } from "../../results/stats.ts";
import { endpointRows } from "../endpoint_rows.ts";

/** One endpoint on the page. */
export interface PageEndpoint {
  name: string;
  requests: number;
  rps: number;
  errors: number;
  non2xx: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  pooledRequests: number;
  /** [percentile, ms] points of its latency; empty without a response. */
  percentiles: Array<[number, number]>;
}

/** The run's endpoints for the page, slowest p99 first; empty for a run without them. */
export function pageEndpoints(run: RunResult): PageEndpoint[] {
  return endpointRows(run).map(({ endpoint, ...row }) => ({
    ...row,
    rps: round4(row.rps),
    percentiles: endpoint.histogramEncoded === null
      ? []
      : percentileCurve(decodeHistogram(endpoint.histogramEncoded)).map((p): [number, number] => [
        p.percentile,
        round4(p.latencyMs),
      ]),
  }));
}
