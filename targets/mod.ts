/**
 * @module
 * The targets loadlab measures, behind `startTarget(spec)` and `startTelemetry(target)`; they run in their
 * own processes (child_main.ts), so a run that only starts them never loads their code.
 */
export { startTarget } from "./start.ts";
export { loopbackListener, startTelemetry } from "./telemetry.ts";
export { type CpuProfiling, startCpuProfiles, type TakenProfile } from "./inspector.ts";
export { TargetError } from "./errors.ts";
export { parseRateLimit } from "./proxy/rate_limit.ts";
export { type RateLimit, type RunningTarget, type TargetSpec } from "./spec.ts";
