/**
 * @module
 * What the engine's connections have in common, whatever their protocol: the worker-wide parts every
 * connection of a worker shares (`ConnectionShared`), and the shape the executors, the watchdog and the
 * graceful stop drive (`LoadConnection`), met by an HTTP/1.1 `Connection` (h1/connection.ts) and by one
 * stream of an HTTP/2 or HTTP/3 connection (h2/slot.ts `H2Slot`, h3/slot.ts `H3Slot`); and what a flow's
 * session needs of one (`StepConnection`: send a step, read what it kept). Types only, so every protocol room
 * imports them without importing another.
 */
import type { IntervalRecorder } from "../stats/recorder.ts";
import type { EncodedRequest, RequestMix } from "./request.ts";
import type { RowSource } from "./request_picker.ts";
import type { ConnectGate } from "./transport/connect_gate.ts";
import type { CallbackConnect, Transport } from "./transport/transport.ts";
import type { StepResponse } from "./kept_response.ts";
import type { H2Request } from "./h2/request.ts";

/** Receives one line per completed response; see request_log.ts. */
export interface ResponseSink {
  write(status: number, startMs: number, endMs: number, connectionId: number): void;
}

/** What every connection of a worker shares. */
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
  /** Cap of a response head; a bigger one is a `parse` error and the connection closes. */
  readonly maxHeaderBytes: number;
  /** Bounds connects in flight at once (every `open` passes it). */
  readonly connectGate: ConnectGate;
  /**
   * Connects complete beside the crowd's traffic (the epoll and io_uring pumps serve both), so a closed
   * loop may start on each connection as soon as it is open; false on the deno transport, whose connects
   * issued while the others are busy are starved (models/connections.ts opens the whole crowd first).
   */
  readonly connectsBesideTraffic?: boolean;
  log: ResponseSink | null;
  /** True once the run is over: failures caused by our own shutdown are not counted. */
  stopping: boolean;
}

/**
 * `fields` as a new object with every field of `ConnectionShared`, always in the same order. The
 * generator's warm-up and the run each build one; with one hidden class between them, the code V8
 * optimized during the warm-up (which reads `shared` on every request) stays valid at t0 instead of
 * deoptimizing on a "wrong map" and running slow again for the run's first second.
 */
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
    maxHeaderBytes: fields.maxHeaderBytes,
    connectGate: fields.connectGate,
    connectsBesideTraffic: fields.connectsBesideTraffic ?? false,
    log: fields.log,
    stopping: fields.stopping,
  };
}

/**
 * Grants the next exchange of a closed loop: requests to send (up to `depth`), 0 to stop; `nowMs` is
 * when the previous one ended. Once it returns 0 it keeps returning 0 (the closed loop calls it again).
 */
export type NextExchange = (depth: number, nowMs: number) => number;

/**
 * What the executors, the watchdog and the graceful stop need of a connection: an HTTP/1.1 `Connection`,
 * or one stream of an HTTP/2 connection (h2/slot.ts `H2Slot`).
 */
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

/** A flow step's request, encoded once per flow for each protocol a run may speak. */
export interface StepRequest {
  /** The step over HTTP/1.1 (a template when it has placeholders or the session keeps cookies). */
  readonly request: EncodedRequest;
  /** The same step over HTTP/2, or null when the run speaks HTTP/1.1. */
  readonly h2: H2Request | null;
  /** What of its response the step keeps: 0 nothing, 1 the head, 2 head and body. */
  readonly keep: number;
  /** The most bytes of its response the step keeps. */
  readonly maxKeptBytes: number;
}

/** A load connection that runs a flow's steps (every protocol room's that supports flows). */
export interface StepConnection extends LoadConnection {
  /**
   * One step from `sendMs`: its request filled with the session's `values` and the jar's `cookieLine`
   * (`Cookie: ...` with its CRLF, or null), keeping what `step.keep` asks of the response (then
   * `keptResponse`). Resolves with 1 when it was answered, 0 when it failed (counted) or was never sent.
   */
  sendStep(
    sendMs: number,
    step: StepRequest,
    values: ReadonlyArray<Uint8Array>,
    cookieLine: Uint8Array | null,
  ): Promise<number>;
  /** What the last step that kept something kept; valid until the next step. */
  keptResponse(): StepResponse;
  /** The session is over: its values and cookies are forgotten. */
  endSession(): void;
}

/** `conn` as a connection that runs flow steps; throws when its protocol has no flows. */
export function stepConnectionOf(conn: LoadConnection): StepConnection {
  if ("sendStep" in conn) return conn as StepConnection;
  throw new TypeError("flows need a connection that runs steps (HTTP/1.1 or HTTP/2)");
}
