/**
 * @module
 * A run's endpoints as report.html embeds them: the shown rows and their decoded percentile curves.
 */
import type { RunResult } from "../../../results/mod.ts";
import { decodeHistogram, percentileCurve } from "../../../results/histogram.ts";
import { round4 } from "../../../results/stats.ts";
import { type EndpointRow, shownEndpointRows } from "../../endpoint_rows.ts";

/** One endpoint on the page: its row and [percentile, ms] points of its latency (none without a response). */
export type PageEndpoint = Omit<EndpointRow, "endpoint"> & { percentiles: Array<[number, number]> };

/** The endpoints shown on the page, slowest p99 first, and the line saying how many were left out. */
export function pageEndpoints(run: RunResult): { endpoints: PageEndpoint[]; omitted: string } {
  const { rows, omitted } = shownEndpointRows(run);
  const endpoints = rows.map(({ endpoint, ...row }) => ({
    ...row,
    rps: round4(row.rps),
    percentiles: endpoint.histogramEncoded === null
      ? []
      : percentileCurve(decodeHistogram(endpoint.histogramEncoded)).map((p): [number, number] => [
        p.percentile,
        round4(p.latencyMs),
      ]),
  }));
  return { endpoints, omitted };
}
