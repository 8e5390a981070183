/**
 * @module
 * What the engine's connections share, any protocol; types only, so protocol folders import no other.
 */
import type { IntervalRecorder } from "../stats/recorder.ts";
import type { EncodedRequest, RequestMix } from "./request.ts";
import type { RowSource } from "./request_picker.ts";
import type { ConnectGate } from "./transport/connect_gate.ts";
import type { CallbackConnect, Transport } from "./transport/transport.ts";
import type { StepResponse } from "./kept_response.ts";
import type { H2Request } from "./h2/request.ts";

interface ResponseSink {
  write(status: number, intendedMs: number, sentMs: number, endMs: number, connectionId: number): void;
  unanswered(intendedMs: number, sentMs: number, endMs: number, connectionId: number): void;
}

export interface ConnectionShared {
  readonly hostname: string;
  readonly port: number;
  readonly transport: Transport;
  /** The same connect by callback where the transport has one (epoll), else null (`transport` then). */
  readonly connectBy?: CallbackConnect | null;
  readonly recorder: IntervalRecorder;
  readonly mix: RequestMix;
  /** Data rows for the mix's templated requests (one each), or null (no data source, or flows). */
  readonly rows?: RowSource | null;
  readonly timeoutMs: number;
  /** A connect's own timeout, when not `timeoutMs`. */
  readonly connectTimeoutMs?: number;
  /** Cap of a response head; a bigger one is a `parse` error and the connection closes. */
  readonly maxHeaderBytes: number;
  readonly connectGate: ConnectGate;
  /** Connects complete beside traffic (epoll, io_uring); false on deno, which opens the crowd first. */
  readonly connectsBesideTraffic?: boolean;
  log: ResponseSink | null;
  /** True once the run is over: failures caused by our own shutdown are not counted. */
  stopping: boolean;
}

/** `fields` in one order, so the run's and a one-off gRPC channel's share a hidden class. */
export function connectionShared(fields: ConnectionShared): ConnectionShared {
  return {
    hostname: fields.hostname,
    port: fields.port,
    transport: fields.transport,
    connectBy: fields.connectBy ?? null,
    recorder: fields.recorder,
    mix: fields.mix,
    rows: fields.rows ?? null,
    timeoutMs: fields.timeoutMs,
    connectTimeoutMs: fields.connectTimeoutMs,
    maxHeaderBytes: fields.maxHeaderBytes,
    connectGate: fields.connectGate,
    connectsBesideTraffic: fields.connectsBesideTraffic ?? false,
    log: fields.log,
    stopping: fields.stopping,
  };
}

/** Grants a closed loop's next exchange: requests to send (up to `depth`), 0 to stop (and from then on). */
export type NextExchange = (depth: number, nowMs: number) => number;

/** What the executors, the watchdog and the graceful stop need of a connection (h1 or one h2 stream). */
export interface LoadConnection {
  readonly id: number;
  readonly maxDepth: number;
  deadlineMs: number;
  timedOut: boolean;
  lastEventMs: number;
  readonly isOpen: boolean;
  open(): Promise<boolean>;
  exchange(
    intendedMs: number,
    depth?: number,
    request?: EncodedRequest | null,
    next?: NextExchange | null,
  ): Promise<number>;
  abort(): void;
  release(): void;
  countUnfinished(nowMs: number): void;
}

export interface StepRequest {
  /** The step over HTTP/1.1 (a template when it has placeholders or the session keeps cookies). */
  readonly request: EncodedRequest;
  /** The same step over HTTP/2, or null when the run speaks HTTP/1.1. */
  readonly h2: H2Request | null;
  /** What of its response the step keeps: 0 nothing, 1 the head, 2 head and body. */
  readonly keep: number;
  readonly maxKeptBytes: number;
}

/** A load connection that runs a flow's steps (every protocol room's that supports flows). */
export interface StepConnection extends LoadConnection {
  /** One step from `sendMs`, filled with `values` and `cookieLine` (or null): 1 if answered, else 0. */
  sendStep(
    sendMs: number,
    step: StepRequest,
    values: ReadonlyArray<Uint8Array>,
    cookieLine: Uint8Array | null,
  ): Promise<number>;
  /** What the last step that kept something kept; valid until the next step. */
  keptResponse(): StepResponse;
  /** HTTP/1.1: whether that response's head has a Set-Cookie field (its parser noted it). */
  readonly setCookie?: boolean;
  endSession(): void;
}

export function stepConnectionOf(conn: LoadConnection): StepConnection {
  if ("sendStep" in conn) return conn as StepConnection;
  throw new TypeError("flows need a connection that runs steps (HTTP/1.1 or HTTP/2)");
}
