/**
 * @module
 * A flow's ws steps on the session's own `WsSessionSocket`: a wait's round trip counts under its endpoint.
 */
import type { FlowSpec } from "../flow_spec.ts";
import { resolvePath } from "../http/request.ts";
import {
  buildTemplate,
  fillLane,
  partsOf,
  type RequestTemplate,
  TemplateWriter,
  upperBound,
  writeParts,
} from "../http/template.ts";
import { handshakeLines, newKey } from "../../ws/handshake.ts";
import type { MaskKeys } from "../../ws/frame_encoder.ts";
import type { BufferBudget } from "../../ws/buffer_budget.ts";
import type { StepResponse } from "../http/kept_response.ts";
import type { ConnectionShared } from "../http/load_connection.ts";
import type { WsStats } from "../http/ws/stats.ts";
import { WsSessionSocket } from "../http/ws/session_socket.ts";
import type { ReceivedMessage } from "../http/ws/session_socket.ts";
import { type CapturedBytes, checkPasses, compileCheck, compileExtract, runExtract } from "./step_checks.ts";
import type { WsAction } from "../ws_step_spec.ts";
import { wsStepWaits } from "../endpoint_table.ts";
import { concatBytes } from "../../system/copy_bytes.ts";

const encoder = new TextEncoder();
const NO_HEADERS: string[] = [];

export type EncodedWsStep = ReturnType<typeof encodeWsStep>;

/** Compiles one ws step of a flow at `url`, with its value names and the run's default timeout. */
export function encodeWsStep(
  step: Extract<FlowSpec["steps"][number], { ws: unknown }>,
  url: URL,
  indexOf: (name: string) => number,
  defaultTimeoutMs: number,
  stepIndex: number,
  endpoint: number,
) {
  const ws = step.ws;
  const waits = wsStepWaits(step);
  const hasExtract = (step.capture?.length ?? 0) + (step.expect?.length ?? 0) > 0;
  return {
    kind: "ws" as const,
    /** Index among the flow's timed steps (results), or -1 for a send that waits for nothing and a close. */
    stepIndex,
    /** The endpoint its message is recorded under, or -1. */
    endpoint,
    /** connect: the handshake request (its key added per handshake), the subprotocols it offers. */
    handshake: ws.connect === undefined ? null : handshakeTemplate(url, ws, indexOf),
    protocols: ws.protocols ?? [],
    /** connect: permessage-deflate offered. */
    deflate: ws.deflate ?? false,
    /** connect: the host and path its cookies are chosen by (the path to its query or first placeholder). */
    host: url.host,
    path: ws.connect === undefined ? "" : resolvePath(url, ws.connect).split(/\?|\{\{/)[0] || "/",
    /** send: the message's text as parts. */
    message: ws.send === undefined ? null : partsOf(ws.send, indexOf),
    /** send or wait: the rule picking the message waited for; null for a send that waits for nothing. */
    match: waits ? compileCheck(ws.wait ?? ws.match ?? {}, indexOf) : null,
    extract: hasExtract ? compileExtract(step.capture ?? [], step.expect ?? [], indexOf) : null,
    timeoutMs: ws.timeoutMs ?? defaultTimeoutMs,
    /** close: its code; 0 for any other step. */
    closeCode: ws.close ?? 0,
  };
}

/** The Upgrade request of a connect as a template, its key added per handshake. */
function handshakeTemplate(url: URL, ws: WsAction, indexOf: (name: string) => number): RequestTemplate {
  const headers = Object.entries(ws.headers ?? {});
  const lines = handshakeLines(resolvePath(url, ws.connect!), url.host, null, { ...ws, headers });
  return buildTemplate(lines.join("\r\n") + "\r\n", undefined, false, indexOf);
}

/** A received message as captures and checks read a response: its text is the body. */
class MessageResponse implements StepResponse {
  readonly status = 0;
  constructor(readonly body: string) {}
  headers(): string[] {
    return NO_HEADERS;
  }
}

/** How a flow step ended: done, failed (counted), a capture that found nothing, or cut by the run's end. */
export type StepOutcome = "done" | "failed" | "captureFailed" | "stopped";

interface WsSessionRun {
  readonly shared: ConnectionShared;
  readonly stats: WsStats;
  readonly keys: MaskKeys;
  /** The worker's budget for messages in progress (ws/buffer_budget.ts), shared by its sessions. */
  readonly budget: BufferBudget;
  readonly ended: AbortSignal;
}

/** A session's WebSocket state: its socket (one at a time) and the writer its handshakes are filled in. */
export class WsSession {
  socket: WsSessionSocket | null = null;
  /** When the last timed event of a step happened (its answer, its handshake). */
  lastEventMs = 0;
  readonly #writer = new TemplateWriter();

  constructor(readonly run: WsSessionRun) {}

  /** Runs `step` with the session's `values`, counting its checks; `cookieLine` goes with a handshake. */
  async step(
    step: EncodedWsStep,
    values: Uint8Array[],
    counters: { passed: Uint32Array; failed: Uint32Array },
    cookieLine: Uint8Array | null,
    captured: CapturedBytes,
  ): Promise<StepOutcome> {
    const { shared, ended } = this.run;
    if (step.handshake !== null) return await this.#connect(step, values, cookieLine);
    const socket = this.socket!;
    if (step.closeCode > 0) {
      await socket.close(step.closeCode, shared.timeoutMs, ended);
      this.socket = null;
      return "done";
    }
    const startMs = performance.now();
    if (step.message !== null) {
      const parts = step.message;
      // A template of many big captures could grow a send without bound: it keeps a received message's cap.
      const bytes = upperBound(parts, values);
      if (bytes > socket.maxMessageBytes) {
        const message = `a message to send over the ${socket.maxMessageBytes}-byte cap (its placeholders ` +
          `filled it to ${bytes} bytes)`;
        shared.recorder.recordError(startMs, "ws-too-big", message, step.endpoint);
        return "failed";
      }
      const ready = await socket.writable(step.timeoutMs, step.endpoint, ended);
      if (ready !== "ready") return ready === "stopped" || shared.stopping ? "stopped" : "failed";
      const buf = new Uint8Array(bytes);
      fillLane.uuidDrawn = false;
      if (!socket.send(buf.subarray(0, writeParts(buf, 0, parts, values)), step.endpoint)) return "failed";
    }
    if (step.match === null) return "done";
    const match = step.match;
    const accepts = (m: ReceivedMessage) => checkPasses(match, new MessageResponse(m.text), values);
    const got = await socket.wait(accepts, step.timeoutMs, step.endpoint, ended);
    if (typeof got === "string") {
      if (got !== "stopped" && !shared.stopping) return "failed";
      // Sent and awaited when the run's stop cut it: unfinished, as an HTTP request in flight then.
      if (step.message !== null) shared.recorder.unfinished(performance.now(), 1);
      return "stopped";
    }
    // A message that came before the step began (queued) answers it at once.
    const atMs = Math.max(got.atMs, startMs);
    this.lastEventMs = atMs;
    const latencyUs = (atMs - startMs) * 1000;
    shared.recorder.recordMessage(atMs, latencyUs, latencyUs, step.endpoint);
    if (step.extract === null) return "done";
    const response = new MessageResponse(got.text);
    const missed = runExtract(step.extract, response, values, counters, captured);
    if (missed === null) return "done";
    if (missed.kind === "too-big") {
      shared.recorder.recordError(atMs, "body-too-large", missed.message, step.endpoint);
    }
    return "captureFailed";
  }

  async #connect(
    step: EncodedWsStep,
    values: Uint8Array[],
    cookieLine: Uint8Array | null,
  ): Promise<StepOutcome> {
    const { shared, stats } = this.run;
    const key = newKey();
    const keyLine = encoder.encode(`Sec-WebSocket-Key: ${key}\r\n`);
    const extra = cookieLine === null ? keyLine : concatBytes([keyLine, cookieLine]);
    const filled = this.#writer.fill(step.handshake!, values, extra);
    if (filled === null) {
      shared.recorder.recordError(performance.now(), "bad-value", this.#writer.refused);
      return "failed";
    }
    const socket = new WsSessionSocket(shared, this.run);
    const offer = { request: filled.slice(), key, protocols: step.protocols, deflate: step.deflate, stats };
    if (!(await socket.open(offer, step.endpoint))) return shared.stopping ? "stopped" : "failed";
    this.socket = socket;
    this.lastEventMs = performance.now();
    return "done";
  }

  /** The session is over: its WebSocket, if still open, closes (1000). */
  end(): void {
    this.socket?.release();
    this.socket = null;
  }
}
