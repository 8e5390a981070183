/**
 * @module
 * The targets loadlab measures, behind one entry point for the experiments (scenarios/) and the commands
 * (cli/): `startTarget(spec)` starts the built-in Hono target (one or several instances, balanced or
 * sharing a port), an external app, a framework app from `examples/` (Node or Deno), or a Redis
 * caching/rate-limiting proxy in front of any, and `startTelemetry(target)` samples CPU, RSS and Redis
 * counters while a run goes. The targets themselves (the Hono app, the proxy, the gRPC endpoints) run in
 * their own processes (child_main.ts), so they are not exported here: a run that only starts them does
 * not load their code, or Hono's, into its own memory.
 *
 * @example
 * ```ts
 * const target = await startTarget({ kind: "builtin", instances: 2, balance: "least-connections" });
 * const telemetry = startTelemetry(target, { intervalMs: 250 });
 * await telemetry.ready; // counters are measured from here
 * // ... run the load against `${target.url}/json` ...
 * const series = telemetry.stop();
 * await target.stop();
 * ```
 */
export { startTarget } from "./start.ts";
export type { StartOptions } from "./start_stack.ts";
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
