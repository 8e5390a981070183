/**
 * @module
 * The types between a worker and its load (options, summaries, handles): read without loading run_load.ts.
 */
import type { WsParts } from "../../results/ws_totals.ts";
import type { AttackConfig } from "../config.ts";
import type { ProtocolUsed } from "../http/protocols.ts";
import type { TlsSessionInfo } from "../http/tls/deno_tls.ts";
import type { TransportKind } from "../http/transport/choice.ts";
import type { IntervalSample } from "../stats/sample.ts";
import type { FlowSample } from "../stats/flow_counters.ts";
import type { SteerChange } from "../../results/schema/steering.ts";

export interface LoadRunOptions {
  config: AttackConfig;
  workerIndex: number;
  workerCount: number;
  onSamples(samples: IntervalSample[]): void;
  /** The WebSocket warm-up's echo when the pool started one for all workers (warmup_sink.ts). */
  warmupSinkUrl?: string;
  /** Called once at the end with this worker's flow totals, when the load has flows. */
  onFlows?(flows: FlowSample[]): void;
  /** The worker's heartbeat (runner/worker/protocol.ts): each answer marks its time there too. */
  heartbeat?: SharedArrayBuffer;
  /** The load is the generator's warm-up burst, its sink answering on this thread (generator_warmup.ts). */
  sinkOnThread?: boolean;
}

/** What a worker did before t0. */
export interface PrepareSummary {
  preConnected: number;
  /** The latency estimate the pool was sized with (ms), null when not estimated. */
  preConnectEstimateMs: number | null;
  /** Time of the generator's warm-up against its sink (ms); 0 when skipped. */
  generatorWarmupMs: number;
  /** The transport chosen for this run (transport/choice.ts), and why epoll fell back, if it did. */
  transport: TransportKind;
  transportFallback: string | null;
  /** The HTTP version spoken (protocols.ts; `auto` resolved by ALPN). */
  protocol: ProtocolUsed;
}

/** What a worker reports when its share is done. */
export interface LoadRunSummary {
  /** Time from the start of the measured run to the end of this worker's load. */
  activeMs: number;
  /** How long this worker's iterations ran past the load's planned end (a graceful stop's tail). */
  tailMs?: number;
  /** Most connects to the target in flight at once in this worker, pre-connect included. */
  maxConnectsInFlight: number;
  /** https: what the worker's first handshake negotiated; null when none completed (or http:). */
  tlsSession: TlsSessionInfo | null;
  /** HTTP/2: most streams open at once on one connection of this worker (0 over HTTP/1.1). */
  maxStreamsPerConnection: number;
  /** Why the request log could not be written in full (a full disk...); the load itself still counts. */
  logError?: string;
  /** The load's data rows ran out in this worker (`whenDone: stop`, or `unique`): it stopped sending. */
  dataRanOut?: boolean;
  /** WebSocket runs: this worker's counts (handshakes, messages each way, close codes). */
  ws?: WsParts;
  /** A count that ended short of its count: its max duration passed, or its sessions all sat idle. */
  endedBy?: "maxDuration" | "idle";
}

/** A running load; `stop()` asks it to start nothing new and end gracefully; `steer` changes it. */
export interface LoadRun {
  done: Promise<LoadRunSummary>;
  steer(change: SteerChange): void;
  stop(): void;
  /** Hands over the counts so far, synchronously: the isolate is ending on its own (`Deno.exit`). */
  flush(): void;
  /** The script sessions in progress (0 without a script): cut with the worker if it is ended as stuck. */
  inProgress(): number;
}

/** A load made ready before t0: the generator warm, the pool open; `start` runs it. */
export interface PreparedLoad {
  summary: PrepareSummary;
  /** Starts the load at `startMs` (this isolate's `performance.now()`; warm-up of the target included). */
  start(startMs: number): LoadRun;
}
