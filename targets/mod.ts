/**
 * @module
 * The targets loadlab measures, behind `startTarget(spec)` (built-in Hono target, external app, example
 * framework app, Redis proxy) and `startTelemetry(target)`. Targets run in their own processes
 * (child_main.ts), so a run that only starts them never loads their code.
 */
export { type StartOptions, startTarget } from "./start.ts";
export { loopbackListener, startTelemetry } from "./telemetry.ts";
export { type CpuProfiling, type ProfiledRuntime, startCpuProfiles, type TakenProfile } from "./inspector.ts";
export { TargetError } from "./errors.ts";
export { parseRateLimit } from "./proxy/rate_limit.ts";
export { EXAMPLES_INSTALL_HINT } from "./example.ts";
export {
  type BuiltinSpec,
  builtinSpecSchema,
  cmsSchema,
  type CmsSpec,
  type ExampleSpec,
  exampleSpecSchema,
  type ExternalSpec,
  externalSpecSchema,
  profileBlocker,
  type ProxySpec,
  proxySpecSchema,
  type RateLimit,
  type RunningTarget,
  type TargetInfo,
  type TargetProcess,
  type TargetSpec,
  targetSpecSchema,
} from "./spec.ts";
