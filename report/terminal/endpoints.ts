/**
 * @module
 * The terminal's per-endpoint block, slowest p99 first, with a note for names pooling several requests.
 */
import { terminalSafe } from "../../validation/terminal_text.ts";
import type { RunResult } from "../../results/mod.ts";
import { formatCount, formatDurationMs, formatNumber } from "../../results/text_format.ts";
import { endpointQualifier, shownEndpointRows } from "../endpoint_rows.ts";

/** The block's lines (heading first); empty for a run of one endpoint or none. */
export function endpointLines(run: RunResult, bold: (text: string) => string): string[] {
  const { rows, omitted } = shownEndpointRows(run);
  if (rows.length < 2) return [];
  const names = rows.map((r) => terminalSafe(r.name));
  const width = Math.min(48, Math.max(...names.map((n) => n.length)));
  const lines = rows.map((r, k) => {
    const failures = r.errors + r.non2xx > 0 ? `  failed ${formatCount(r.errors + r.non2xx)}` : "";
    return `  ${names[k].padEnd(width)}  ${formatCount(r.requests).padStart(9)} req ` +
      `${formatNumber(r.rps).padStart(10)}/s  p50 ${formatDurationMs(r.p50Ms).padStart(9)}  ` +
      `p99 ${formatDurationMs(r.p99Ms).padStart(9)}  max ${formatDurationMs(r.maxMs).padStart(9)}${failures}`;
  });
  const pooled = rows.filter((r) => r.pooledRequests > 1).map((r) =>
    `  note: "${terminalSafe(r.name)}" names ${r.pooledRequests} different requests: their numbers are pooled`
  );
  const qualifier = endpointQualifier(run);
  const heading = `Endpoints (slowest p99 first; latency from the intended send, as the run's${
    qualifier ? `; ${qualifier}` : ""
  }):`;
  return [bold(heading), ...lines, ...(omitted ? [`  ${omitted}`] : []), ...pooled];
}
