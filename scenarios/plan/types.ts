/**
 * @module
 * The shapes of a plan, shared by the planner, its checks and the runner.
 */
import type { RelativeAttackInput } from "../../runner/config.ts";
import type { TargetSpec } from "../../targets/spec.ts";
import type { Experiment } from "../schema/experiment.ts";
import type { TogetherPart } from "../together.ts";

/** Sweep coordinate: a number, or a word for a categorical sweep; a secret value is redacted unless kept. */
export interface SweepPoint {
  parameter: string;
  value: number | string;
}

/** One run of the plan, in execution order. */
export interface PlannedRun {
  /** Position in execution order, 0-based. */
  index: number;
  /** `direct/burst`, `single/cpu/query.ms=5#2` (`#` and the 1-based repeat only when repeats > 1). */
  name: string;
  /** Target name. */
  variant: string;
  load: string;
  sweep?: SweepPoint;
  /** The grid's second axis. */
  sweep2?: SweepPoint;
  /** 0-based. */
  repeat: number;
  /** Runs with equal keys may share one started target. */
  targetKey: string;
  target: { kind: "spec"; spec: TargetSpec } | { kind: "url"; url: string };
  /** (Re)start the target before this run: each configuration's first run, then per the restart policy. */
  freshTarget: boolean;
  /** Request paths are relative to the target's base URL. */
  attack: RelativeAttackInput;
  /** Pause before this run (0 for the first). */
  cooldownMs: number;
  /** `grpc`: its HTTP requests go to the built-in target's gRPC listener (node:http2), not its HTTP port. */
  listener?: "grpc";
  thresholds: string[];
  /** Those of them with `abortOnFail`, judged during the run; each with its `delayAbortEval` (ms). */
  abortOn?: Array<{ expr: string; delayMs: number }>;
  /** Cut the statistics at the stabilization time after the run. */
  warmupAuto: boolean;
  /** Loads run at once with this one (`together:`), each with its start; `attack` is the first's. */
  parts?: TogetherPart<RelativeAttackInput>[];
}

/** One capacity search (`search:`) of one target: bisection over `range` with short probes of `base`. */
export type SearchPlan = Omit<NonNullable<Experiment["search"]>, "targets" | "load"> & {
  target: string;
  load: string;
  /** The run to vary: the target x load at its base, measured for `probeMs`. */
  base: PlannedRun;
};

export interface Plan {
  experiment: Experiment;
  runs: PlannedRun[];
  searches: SearchPlan[];
}

/** Which targets and loads to run (`--only target=X,load=Y`). */
export interface PlanOptions {
  only?: { target?: string[]; load?: string[] };
  /** `--no-redact` (or `redact: false`): run names and sweep coordinates show secret values. */
  keepSecrets?: boolean;
}
