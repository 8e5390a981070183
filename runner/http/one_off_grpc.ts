/**
 * @module
 * gRPC calls on their own HTTP/2 connection outside any load (reflection, a k6 script's setup()/teardown()).
 * No answer within `timeoutMs` is DEADLINE_EXCEEDED (its stream reset); replies past `maxReplyBytes` fail.
 */
import { DEFAULT_WINDOW_BYTES } from "../../http2/frames.ts";
import { MessageReader } from "../../grpc/framing.ts";
import { GRPC_DEADLINE_EXCEEDED, GRPC_INTERNAL } from "../../grpc/status.ts";
import { GRPC_STATUS_SLOTS_FROM } from "../../results/schema/keys.ts";
import { IntervalRecorder } from "../stats/recorder.ts";
import { connectionShared } from "./load_connection.ts";
import { RequestMix } from "./request.ts";
import { ConnectGate } from "./transport/connect_gate.ts";
import { tcpTransport } from "./transport/transport.ts";
import { tlsTransport } from "./tls/deno_tls.ts";
import { serverNameOf } from "./tls/material.ts";
import type { TlsOptions } from "./tls/options.ts";
import { H2Connection } from "./h2/connection.ts";
import { H2Slot } from "./h2/slot.ts";
import { encodeH2Request } from "./h2/request.ts";
import { GrpcAnswer } from "./grpc/answer.ts";
import { grpcRequestSpec } from "./grpc/call.ts";

/** How an https: origin is verified: the run's own TLS options (`-k`, `--cacert`, `--sni`). */
export type OneOffTls = { readonly insecure?: boolean; readonly caFile?: string; readonly sni?: string };

/** What one call got: its code, why when not OK, its replies' payloads, its head's fields (lower case). */
type OneOffAnswer = {
  status: number;
  problem: string;
  replies: Uint8Array[];
  fields: [string, string][];
};

/** One HTTP/2 connection to `origin` (http: or https:, ALPN h2) for calls one at a time. */
export class OneOffChannel {
  readonly #url: URL;
  readonly #recorder = new IntervalRecorder({ intervalMs: 1000, originMs: Infinity, uncorrected: false });
  readonly #slot: H2Slot;
  /** The call before: the channel's one stream slot takes calls one after another. */
  #last: Promise<unknown> = Promise.resolve();

  constructor(origin: string, connectTimeoutMs: number, tls: OneOffTls = {}) {
    const url = this.#url = new URL(origin);
    const https = url.protocol === "https:";
    const options = { ...tls, resume: false } as TlsOptions;
    const transport = https ? tlsTransport(serverNameOf(url, tls), options, ["h2"]).transport : tcpTransport;
    const shared = connectionShared({
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: Number(url.port) || (https ? 443 : 80),
      transport,
      recorder: this.#recorder,
      mix: new RequestMix(url, [{ method: "POST", path: "/", headers: [], weight: 1 }], 0),
      // Each call's own timer ends it (`call`); the connect has the caller's deadline.
      timeoutMs: 2 ** 31,
      connectTimeoutMs,
      maxHeaderBytes: 256 * 1024,
      connectGate: new ConnectGate(Infinity),
      log: null,
      stopping: false,
    });
    const run = { requests: [], windowBytes: DEFAULT_WINDOW_BYTES };
    this.#slot = new H2Slot(0, new H2Connection(0, shared, run), run);
  }

  /** Connects now; an unreachable server throws, naming it and why. */
  async open(): Promise<void> {
    if (!(await this.#slot.open())) {
      throw new Error(`${this.#url.origin}: ${this.#recorder.lastErrorMessage}`);
    }
  }

  /** Calls `path` (`/pkg.Service/Method`) with `messages` (protobuf each) once the last call ended. */
  call(...args: Parameters<OneOffChannel["send"]>): Promise<OneOffAnswer> {
    const next = this.#last.then(() => this.send(...args));
    this.#last = next.catch(() => {});
    return next;
  }

  private async send(
    path: string,
    messages: Uint8Array[],
    timeoutMs: number,
    maxReplyBytes: number,
    metadata: Record<string, string> = {},
  ): Promise<OneOffAnswer> {
    const slot = this.#slot, answer = new GrpcAnswer({ maxReceiveBytes: maxReplyBytes });
    this.#recorder.lastErrorKind = null;
    const call = { method: path.slice(1), message: messages, metadata: Object.entries(metadata) };
    const request = encodeH2Request(this.#url, grpcRequestSpec(call, timeoutMs), [], false, true);
    const timer = setTimeout(() => (slot.timedOut = true, slot.abort()), timeoutMs);
    // Keeps (2) the answer's head and body, as a flow step that reads both.
    const got = await slot.exchangeStep(-1, request, [], null, 2, maxReplyBytes, answer)
      .finally(() => clearTimeout(timer));
    const kept = slot.keptResponse().snapshot();
    const fields: [string, string][] = [];
    for (let k = 0; k < kept.fields.length; k += 2) fields.push([kept.fields[k], kept.fields[k + 1]]);
    const kind = String(this.#recorder.lastErrorKind), tooBig = kind === "body-too-large";
    const replies = tooBig ? [] : repliesOf(kept.body);
    if (got > 0) return { status: 0, problem: "", replies, fields };
    if (slot.timedOut) {
      return { status: GRPC_DEADLINE_EXCEEDED, problem: `no answer within ${timeoutMs} ms`, replies, fields };
    }
    if (tooBig) {
      return { status: GRPC_INTERNAL, problem: `the answer passed ${maxReplyBytes} bytes`, replies, fields };
    }
    if (!kind.startsWith("grpc")) {
      throw new Error(this.#recorder.lastErrorMessage || "the connection closed");
    }
    const code = answer.statusSlot > 0 ? answer.statusSlot - GRPC_STATUS_SLOTS_FROM : GRPC_INTERNAL;
    return { status: code, problem: answer.message, replies, fields };
  }

  close(): void {
    this.#slot.release();
  }
}

/** A reply body's length-prefixed messages, each payload copied out. */
function repliesOf(body: Uint8Array): Uint8Array[] {
  const replies: Uint8Array[] = [];
  const reader = new MessageReader(body.length + 1);
  reader.onMessage = (payload) => replies.push(payload.slice());
  reader.feed(body, 0, body.length);
  return replies;
}
