/**
 * @module
 * The markdown summary's per-endpoint tables, slowest p99 first, at most `MAX_SHOWN_ENDPOINTS` rows. Pure.
 */
import type { RunResult } from "../../results/mod.ts";
import { endpointQualifier, shownEndpointRows } from "../endpoint_rows.ts";
import { countOrDash, fixedOrDash } from "../../results/text_format.ts";

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
        `| ${escape(r.name)}${pooled} | ${countOrDash(r.requests)} | ${countOrDash(r.rps)} | ${
          countOrDash(r.errors + r.non2xx)
        } | ` +
          `${fixedOrDash(r.p50Ms, 2)} | ${fixedOrDash(r.p99Ms, 2)} | ${fixedOrDash(r.maxMs, 2)} |`,
      );
    }
    if (omitted) lines.push("", escape(omitted));
  }
  return lines;
}
