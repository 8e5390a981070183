/**
 * @module
 * Thresholds on one error kind (`errorRate{kind:timeout}<1%`), judged on the whole run. Pure.
 */
import type { RunResult } from "../mod.ts";
import { ERROR_KINDS } from "../schema/values.ts";
import type { Selector } from "./selector.ts";
import { nearest } from "../../validation/suggest.ts";
import { sumValues } from "../interval_counts.ts";

const KIND_METRICS = new Set(["errors", "errorRate"]);

/** `selector` without its `kind` (undefined when nothing else was selected), and the kind. */
export function splitKind(selector: Selector | undefined): { selector?: Selector; kind?: string } {
  if (selector?.kind === undefined) return { selector };
  const { kind, ...rest } = selector;
  return { kind, ...(Object.keys(rest).length > 0 ? { selector: rest } : {}) };
}

/** Why `metric` cannot take error kind `kind` (with a window `windowMs`), or null when it can. */
export function kindProblem(metric: string, kind: string, windowMs: number | undefined): string | null {
  if (!(ERROR_KINDS as readonly string[]).includes(kind)) {
    const guess = nearest(kind, [...ERROR_KINDS]);
    return `no error kind "${kind}"${guess ? `; did you mean "${guess}"?` : ""} (the kinds: ${
      ERROR_KINDS.join(", ")
    })`;
  }
  if (!KIND_METRICS.has(metric)) {
    return `{kind:${kind}} selects failures: use errors{kind:...} or errorRate{kind:...}, not ${metric}`;
  }
  if (windowMs !== undefined) return `{kind:...} is judged on the whole run, not "over" windows; drop one`;
  return null;
}

/** `metric` (errors or errorRate) of `run` counting only failures of `kind` (and a gRPC status's answers). */
export function kindValue(run: RunResult, metric: string, kind: string): number {
  const count = ((run.errors as Record<string, number | undefined>)[kind] ?? 0) +
    (run.statusCodes[kind] ?? 0);
  if (metric === "errors") return count;
  const sends = run.requests + sumValues(run.errors);
  return sends > 0 ? count / sends : 0;
}
