/**
 * @module
 * A finished run as results record it (`RunResult`): totals, what the workers said, steering, an abort or
 * ended workers (incomplete), and the config as plain JSON without bodies, rows or script data.
 */
import type { AttackConfig } from "./config.ts";
import { defined } from "../validation/defined.ts";
import type { RequestSpec } from "./request_spec.ts";
import type { RunResult } from "../results/mod.ts";
import type { RunAggregator } from "./stats/aggregate.ts";
import type { WorkersSummary } from "./worker/pool.ts";
import type { HostCpuDelta, HostTcpDelta } from "./stats/host.ts";
import type { AbortedBy } from "../results/thresholds/abort.ts";
import type { SteerChange } from "../results/schema/steering.ts";
import type { FlowResult } from "../results/schema/results.ts";

/** What the run brings besides its config. */
interface RunParts {
  name: string;
  startedAt: string;
  /** The requested rate (a segment's share), null for closed models. */
  requestedRps: number | null;
  /** The measured part's planned length (ms); Infinity when only a count bounds the run. */
  plannedMs: number;
  workers: WorkersSummary;
  aggregator: RunAggregator;
  /** The flows' or the script's sessions; undefined for a load without them. */
  flows: FlowResult[] | undefined;
  hostTcp: HostTcpDelta | null;
  hostCpu: HostCpuDelta | null;
  steered: SteerChange[];
  abortedBy: AbortedBy | null;
}

/** The run's results entry; its length is what the workers were active, up to the plan. */
export function runResultOf(config: AttackConfig, parts: RunParts): RunResult {
  const { workers, plannedMs } = parts;
  const durationMs = Number.isFinite(plannedMs) ? Math.min(workers.activeMs, plannedMs) : workers.activeMs;
  const durationSec = Math.max(durationMs, 1) / 1000;
  return {
    name: parts.name,
    url: config.url,
    model: config.model,
    config: configToJson(config),
    startedAt: parts.startedAt,
    durationSec,
    warmupSec: config.warmupMs / 1000,
    targetRps: parts.requestedRps,
    workers: config.workers,
    ...parts.aggregator.finish(durationSec),
    ...(parts.hostTcp !== null ? { hostTcp: parts.hostTcp } : {}),
    ...(parts.hostCpu !== null ? { hostCpu: parts.hostCpu } : {}),
    ...(config.flows || config.script ? { flows: parts.flows } : {}),
    ...(config.logFile ? { logFile: config.logFile } : {}),
    ...(parts.steered.length ? { steering: parts.steered } : {}),
    ...workers.part,
    ...(parts.abortedBy ? { incomplete: true, abortedBy: parts.abortedBy } : {}),
  };
}

/** The config as plain JSON for results.json: bodies are summarised by size, not embedded. */
function configToJson(config: AttackConfig): Record<string, unknown> {
  const { flows, script, data, grpc } = config;
  return {
    ...config,
    requestMix: config.requestMix.map(withoutBody),
    ...defined({
      flows: flows?.map((flow) => ({
        ...flow,
        steps: flow.steps.map((step) =>
          "request" in step ? { ...step, request: withoutBody(step.request) } : step
        ),
      })),
      // The environment and setup's data stay out of results (they may hold secrets).
      // The routes say which origins went to the target, the expected statuses which answers failed, the
      // system tags which tags k6's samples carry (results/thresholds/selector.ts).
      script: script && defined({
        path: script.path,
        routes: script.routes,
        expectedStatuses: script.expectedStatuses,
        systemTags: script.systemTags,
      }),
      // The rows stay out of results (they may be large, or personal): the source is named and counted.
      data: data && { ...data, rows: undefined, rowCount: data.rows.count },
      // A gRPC run's schema (a FileDescriptorSet) is summarised by size, as bodies are.
      grpc: grpc?.schema && { ...grpc, schema: undefined, schemaBytes: grpc.schema.length },
    }),
  };
}

function withoutBody({ body, grpcMessage, ...rest }: RequestSpec): Record<string, unknown> {
  // A gRPC message template is encoded per call: results say so, not its pieces.
  return { ...rest, ...defined({ bodyBytes: body?.length, grpcTemplate: grpcMessage ? true : undefined }) };
}
