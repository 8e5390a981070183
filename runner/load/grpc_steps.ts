/**
 * @module
 * A flow's gRPC steps in a worker: requests encoded once, replies read as proto3 JSON only when a step reads.
 */
import type protobuf from "protobufjs";
import protojson from "protobufjs/ext/protojson.js";
import { gunzipSync } from "node:zlib";
import type { GrpcStepMaker } from "./flow_plan.ts";
import type { GrpcStep } from "../grpc_step_spec.ts";
import type { StepResponse } from "../http/kept_response.ts";
import { H2KeptResponse } from "../http/h2/kept.ts";
import { findMethod, rootOfDescriptorSet } from "../http/grpc/schema.ts";
import { grpcCallSpec } from "../http/grpc/call_spec.ts";
import { MessageReader, READ_OK } from "../../grpc/framing.ts";

/** The flows' gRPC steps made from the run's schema (`bytes`: its FileDescriptorSet); a bad one throws. */
export function grpcStepMaker(bytes: Uint8Array): GrpcStepMaker {
  const root = rootOfDescriptorSet(bytes, "the run's gRPC schema");
  return {
    request(step: GrpcStep, timeoutMs: number) {
      const method = findMethod(root, step.call);
      const spec = grpcCallSpec(root, {
        call: step.call,
        message: JSON.stringify(step.message),
        metadata: Object.entries(step.metadata),
      }, timeoutMs);
      const { responseType, serverStreaming } = method;
      return { spec, reply: { read: (kept) => new GrpcReplyResponse(kept, responseType, serverStreaming) } };
    },
  };
}

/** A kept gRPC answer as a step's captures and checks read it: its body the replies as proto3 JSON. */
class GrpcReplyResponse implements StepResponse {
  #body: string | null = null;

  constructor(
    readonly kept: StepResponse,
    readonly reply: protobuf.Type,
    readonly serverStreaming: boolean,
  ) {}

  get status(): number {
    return this.kept.status;
  }

  headers(name: string): string[] {
    return this.kept.headers(name);
  }

  get body(): string {
    this.#body ??= this.#decoded();
    return this.#body;
  }

  #decoded(): string {
    const bytes = this.kept instanceof H2KeptResponse ? this.kept.snapshot().body : new Uint8Array(0);
    const replies: unknown[] = [];
    const reader = new MessageReader(bytes.length);
    reader.compressedAllowed = true;
    reader.onMessage = (payload, compressed) => {
      const message = this.reply.decode(compressed ? gunzipSync(payload) : payload);
      replies.push(protojson.toJson(this.reply, message));
    };
    try {
      if (reader.feed(bytes, 0, bytes.length) !== READ_OK) return "";
    } catch {
      return ""; // a reply that does not decode: its captures find nothing, its checks fail
    }
    return JSON.stringify(this.serverStreaming ? replies : replies[0] ?? null);
  }
}
