/**
 * @module
 * A script's gRPC schema (`export const grpc`: a .proto or a protoset), read once; protobuf loads only then.
 */
import { join } from "node:path";
import type protobuf from "protobufjs";
import protojson from "protobufjs/ext/protojson.js";
import { findMethod, type GrpcMethod, loadProtoFile, loadProtoset } from "../../http/grpc/schema.ts";
import { encodeMessage } from "../../http/grpc/message.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../../grpc/framing.ts";

/** What a script declares as `export const grpc`. */
interface GrpcDeclaration {
  proto?: string;
  importPaths?: string[];
  protoset?: string;
  /** The cap of one received message, bytes (4 MiB unless set). */
  maxReceiveBytes?: number;
}

export class ScriptGrpcSchema {
  readonly #methods = new Map<string, GrpcMethod>();

  constructor(readonly root: protobuf.Root, readonly maxReceiveBytes = DEFAULT_MAX_MESSAGE_BYTES) {}

  /** The method `name` (`pkg.Service/Method`, a leading `/` allowed); throws naming what exists. */
  method(name: string): GrpcMethod {
    let found = this.#methods.get(name);
    if (found === undefined) this.#methods.set(name, found = findMethod(this.root, name));
    return found;
  }

  messages(method: GrpcMethod, message: unknown): Uint8Array | Uint8Array[] {
    if (!method.clientStreaming) return encodeMessage(method.requestType, message ?? {});
    const list = Array.isArray(message) ? message : [message];
    return list.map((m, k) => encodeMessage(method.requestType, m, `message[${k}]`));
  }

  /** A call's replies as the script reads them: proto3 JSON, a server stream's as a list; none: null. */
  replyMessage(method: GrpcMethod, replies: Uint8Array[]): unknown {
    const type = method.responseType;
    if (replies.length === 0) return null;
    if (method.serverStreaming) return replies.map((r) => protojson.toJson(type, type.decode(r)));
    return protojson.toJson(type, type.decode(replies[0]));
  }
}

/** The schema a script's `grpc` export declares, files relative to `folder`; throws naming the field. */
export function loadGrpcDeclaration(declared: unknown, folder: string): ScriptGrpcSchema {
  const d = declared as GrpcDeclaration;
  const problem = declarationProblem(d);
  if (problem !== null) throw new TypeError(`export grpc${problem}`);
  const at = (p: string) => join(folder, p);
  const root = d.proto !== undefined
    ? loadProtoFile(at(d.proto), (d.importPaths ?? []).map(at))
    : loadProtoset(at(d.protoset!));
  return new ScriptGrpcSchema(root, d.maxReceiveBytes);
}

function declarationProblem(d: GrpcDeclaration): string | null {
  if (d === null || typeof d !== "object" || Array.isArray(d)) {
    return ': must be { proto: "./x.proto", importPaths?: [...] } or { protoset: "./x.pb" }';
  }
  const known = new Set(["proto", "importPaths", "protoset", "maxReceiveBytes"]);
  const unknown = Object.keys(d).find((k) => !known.has(k));
  if (unknown !== undefined) {
    return `.${unknown}: not a field (proto, importPaths, protoset, maxReceiveBytes)`;
  }
  if ((d.proto === undefined) === (d.protoset === undefined)) {
    return ": give the schema as proto (with importPaths) or protoset, one of them";
  }
  if (d.proto !== undefined && !isText(d.proto)) return ".proto: a file path";
  if (d.protoset !== undefined && !isText(d.protoset)) return ".protoset: a file path";
  if (d.importPaths !== undefined && !(Array.isArray(d.importPaths) && d.importPaths.every(isText))) {
    return ".importPaths: a list of folders";
  }
  const cap = d.maxReceiveBytes;
  if (cap !== undefined && !(Number.isInteger(cap) && cap >= 1 && cap <= 0x7fff_ffff)) {
    return ".maxReceiveBytes: a whole number of bytes, 1 to 2^31-1";
  }
  return null;
}

const isText = (v: unknown) => typeof v === "string" && v !== "";
