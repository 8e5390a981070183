/**
 * @module
 * The markdown summary's per-endpoint tables (report/ci/summary.ts): for each run of more than one
 * endpoint, its endpoints slowest p99 first, with requests, rate, failures and latency; at most
 * `MAX_SHOWN_ENDPOINTS` rows, then a line saying how many more there are and where (endpoint_rows.ts). Pure.
 */
import type { RunResult } from "../../results/mod.ts";
import { endpointQualifier, shownEndpointRows } from "../endpoint_rows.ts";
import { formatCount, formatFixed } from "../../results/text_format.ts";

function fixed(x: number, digits: number): string {
  return Number.isFinite(x) ? formatFixed(x, digits) : "–";
}

function whole(x: number): string {
  return Number.isFinite(x) ? formatCount(x) : "–";
}

/** The tables' lines (each run's heading and rows), empty when no run has several endpoints. */
export function endpointMarkdown(runs: RunResult[], escape: (text: string) => string): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    const { rows, omitted } = shownEndpointRows(run);
    if (rows.length < 2) continue;
    lines.push(
      "",
      `### Endpoints of ${escape(run.name)} (slowest p99 first${
        endpointQualifier(run) ? `; ${endpointQualifier(run)}` : ""
      })`,
      "",
      "| endpoint | requests | req/s | failed | p50 ms | p99 ms | max ms |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const r of rows) {
      const pooled = r.pooledRequests > 1 ? ` (${r.pooledRequests} requests pooled)` : "";
      lines.push(
        `| ${escape(r.name)}${pooled} | ${whole(r.requests)} | ${whole(r.rps)} | ${
          whole(r.errors + r.non2xx)
        } | ` +
          `${fixed(r.p50Ms, 2)} | ${fixed(r.p99Ms, 2)} | ${fixed(r.maxMs, 2)} |`,
      );
    }
    if (omitted) lines.push("", escape(omitted));
  }
  return lines;
}
