/**
 * @module
 * The plain data of a gRPC message with placeholders, read before the load (grpc/message_template.ts) and
 * filled per call in the workers (protobuf_template.ts): fixed fields encoded (`pieces`), the rest slots.
 */

/** The kinds of a slot's field; the workers know a kind by its index here. */
export const GRPC_SLOT_KINDS = [
  "string",
  "bytes",
  "bool",
  "enum",
  "message",
  "float",
  "double",
  "int32",
  "int64",
  "uint32",
  "uint64",
  "sint32",
  "sint64",
  "fixed32",
  "fixed64",
  "sfixed32",
  "sfixed64",
] as const;
type GrpcSlotKind = (typeof GRPC_SLOT_KINDS)[number];

/** One message: `pieces[0]`, slot 0, `pieces[1]`, ..., `pieces[slots.length]`; fields in any order. */
export interface GrpcMessageSpec {
  readonly pieces: readonly Uint8Array[];
  readonly slots: readonly GrpcSlotSpec[];
}

export interface GrpcSlotSpec {
  readonly field: number;
  readonly kind: GrpcSlotKind;
  /** Where it is in the JSON (`message.detail.ids[1]`), for the refusal's message. */
  readonly path: string;
  /** The value as written, placeholders in it (not for a message). */
  readonly text?: string;
  readonly message?: GrpcMessageSpec;
  readonly enumValues?: Readonly<Record<string, number>>;
}

/** A call's messages: one, or a client stream's in order; each sent length-prefixed. */
export interface GrpcBodySpec {
  readonly messages: readonly GrpcMessageSpec[];
  readonly compress?: "gzip";
  /** The cap of one filled message before compression, bytes (4 MiB unless set). */
  readonly maxSendBytes?: number;
}

/** Whether `value` has the shape of a `GrpcBodySpec` (a config's field, checked without walking it). */
export function isGrpcBodySpec(value: unknown): value is GrpcBodySpec {
  return typeof value === "object" && value !== null && Array.isArray((value as GrpcBodySpec).messages);
}
