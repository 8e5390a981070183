/**
 * @module
 * What every layer asks of a load model, one record per model, so planning, steering, merging, export and the
 * report read facts rather than branch on model names. Pure, no runtime imports.
 */
import type { LoadModel } from "./schema/results.ts";
import type { SteerAction } from "./schema/steering.ts";

/** How a model paces: `closed` (send when answered), `open` (a schedule, connections on demand), `fixed`. */
export type Pacing = "closed" | "open" | "fixed";

interface LoadModelFacts {
  /** How it paces its sends, given whether its config sets a `ratePerSec`. */
  pacing(hasRate: boolean): Pacing;
  /** The live changes that apply to a run of it. */
  readonly steers: readonly SteerAction[];
  /** Why no other change applies, when one reason covers them all. */
  readonly steerRefusal?: string;
  /** Where a load's duration goes: each phase's, `durationMs`, or nowhere (its stages are its length). */
  readonly durationIn: "phases" | "durationMs" | "stages";
  /** It ends at a count of requests: a probe keeps its length, ghz calls its end normal. */
  readonly counted?: true;
  /** wrk2's correction: latency from the intended send, the one from the actual send kept beside it. */
  readonly keepsUncorrected?: true;
  /** Its concurrency is its `connections`, each sending again when answered (Little's law's N). */
  readonly closedConnections?: true;
  /** Why flows (sessions) cannot drive it, as the error says it; absent when they can. */
  readonly noFlows?: string;
}

/** Every load model's facts, by name; a function, so report.html inlines it by its source text. */
export function loadModelFacts(): { readonly [M in LoadModel]: LoadModelFacts } {
  const ANY_CHANGE: readonly SteerAction[] = ["pause", "resume", "end-phase", "stop"];
  return {
    connections: {
      pacing: () => "closed",
      steers: [...ANY_CHANGE, "connections"],
      durationIn: "durationMs",
      closedConnections: true,
    },
    rate: {
      pacing: () => "open",
      steers: [...ANY_CHANGE, "rate"],
      durationIn: "phases",
    },
    throughput: {
      pacing: () => "fixed",
      steers: [...ANY_CHANGE, "rate"],
      durationIn: "durationMs",
      keepsUncorrected: true,
      noFlows: "flows need a rate, connections or count load: throughput spreads single requests " +
        "over fixed connections",
    },
    count: {
      pacing: (hasRate) => hasRate ? "open" : "closed",
      steers: ["stop"],
      steerRefusal: "a count run can only be stopped",
      durationIn: "durationMs",
      counted: true,
    },
    "ramping-connections": {
      pacing: () => "closed",
      steers: ["pause", "resume", "stop"],
      steerRefusal: "a ramping-connections run follows its stages: it can be paused, resumed or stopped",
      durationIn: "stages",
    },
  };
}

export const LOAD_MODEL_FACTS = loadModelFacts();

/** The facts of a model named in untyped data (a page's run, a config read as JSON); undefined if unknown. */
export function modelFactsOf(model: string | null | undefined): LoadModelFacts | undefined {
  const facts = loadModelFacts();
  return model != null && Object.hasOwn(facts, model) ? facts[model as LoadModel] : undefined;
}

/** One stage: linear from the previous target to `target` connections over `durationMs`. */
export interface StagePlan {
  durationMs: number;
  target: number;
}

/** Connections at `tMs`: linear between stage targets, rounded toward the previous one (k6's ramping-vus). */
export function connectionsAt(stages: readonly StagePlan[], tMs: number): number {
  let from = 0, startMs = 0;
  for (const s of stages) {
    if (tMs < startMs + s.durationMs) {
      const v = from + ((s.target - from) * Math.max(0, tMs - startMs)) / s.durationMs;
      return s.target >= from ? Math.floor(v) : Math.ceil(v);
    }
    from = s.target;
    startMs += s.durationMs;
  }
  return from;
}
