/**
 * @module
 * A gRPC message given as proto3 JSON, checked against its type and encoded once before the load. An
 * unknown member or a wrong kind is a `GrpcMessageError` naming its JSON path and what the type expects.
 */
import protobuf from "protobufjs";
import protojson from "protobufjs/ext/protojson.js";

/** A message that does not fit its type: `path` is where in the JSON. */
export class GrpcMessageError extends Error {
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = "GrpcMessageError";
  }
}

/** Type URLs whose JSON form is not an object of fields (protobuf's well-known types). */
export const WELL_KNOWN = /^\.google\.protobuf\./;

/** The one reused writer (encoding is synchronous): a fresh one takes a pooled 128-byte Buffer each time. */
let writer = new protobuf.Writer();
/** A writer grown past this by a big message is dropped after it, not kept. */
const KEPT_WRITER_BYTES = 64 * 1024;

/** `json` as `type`'s bytes; `path` names the message in errors; `later`: see `checkFields`. */
export function encodeMessage(type: protobuf.Type, json: unknown, path = "message", later = false) {
  const fields = checkFields(type, json, path, later);
  try {
    const message = protojson.fromJson(type, fields);
    writer.pos = 0;
    writer.states = null;
    const bytes = type.encode(message, writer).finish();
    if (writer.buf.length > KEPT_WRITER_BYTES) writer = new protobuf.Writer();
    return bytes;
  } catch (err) {
    throw new GrpcMessageError(path, err instanceof Error ? err.message : String(err));
  }
}

/** Serialized messages of `type` as proto3 JSON, as ghz reads binary data (length-prefixed, else one). */
export function decodeMessages(type: protobuf.Type, bytes: Uint8Array): unknown[] {
  const messages: unknown[] = [];
  const reader = protobuf.Reader.create(bytes);
  try {
    for (let n; reader.pos < reader.len && (n = reader.uint32()) <= reader.len - reader.pos;) {
      messages.push(protojson.toJson(type, type.decode(reader, n)));
    }
  } catch (err) {
    // A length cut short ends the list; a message that does not decode voids it.
    if (!(err instanceof RangeError)) messages.length = 0;
  }
  if (messages.length > 0) return messages;
  try {
    return [protojson.toJson(type, type.decode(bytes))];
  } catch (err) {
    throw new GrpcMessageError(
      "message",
      `not a serialized ${type.fullName.slice(1)} (${(err as Error).message})`,
    );
  }
}

export function parseMessageText(text: string, path = "message"): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new GrpcMessageError(path, `not JSON (${(err as Error).message})`);
  }
}

/** The field of `type` that the member `key` of the JSON at `path` names (proto name or JSON name). */
export function fieldOf(type: protobuf.Type, key: string, path: string): protobuf.Field {
  const field = type.fields[key] ?? type.fieldsArray.find((f) => jsonNameOf(f) === key);
  if (field !== undefined) return field;
  const names = type.fieldsArray.map((f) => f.name).join(", ") || "none";
  throw new GrpcMessageError(
    `${path}.${key}`,
    `${type.fullName.slice(1)} has no field ${key} (its fields: ${names})`,
  );
}

/** `json` as the object a `type` is written as, else a `GrpcMessageError` at `path`. */
export function objectOf(type: protobuf.Type, json: unknown, path: string): object {
  if (json !== null && typeof json === "object" && !Array.isArray(json)) return json;
  throw new GrpcMessageError(
    path,
    `expected an object (a ${type.fullName.slice(1)}), got ${JSON.stringify(json)}`,
  );
}

/**
 * Every member of `json` names a field of `type`, checked recursively; with `later`, each oneof's earlier
 * members left out, as ghz's JSON reader sets each member in turn; without, two of one oneof are an error.
 */
export function checkFields(type: protobuf.Type, json: unknown, path: string, later: boolean): unknown {
  const goDuration = later && type.fullName === ".google.protobuf.Duration" && typeof json === "string";
  if (WELL_KNOWN.test(type.fullName)) return goDuration ? durationJson(json) : json;
  // By oneof (a name no field of the type has) or by field: a oneof's later member replaces the earlier.
  const kept = new Map<string, [string, unknown]>();
  for (const [key, value] of Object.entries(objectOf(type, json, path))) {
    const field = fieldOf(type, key, path);
    field.resolve();
    const inner = field.resolvedType, oneof = field.partOf?.name;
    if (!later && oneof !== undefined && kept.has(oneof)) {
      throw new GrpcMessageError(`${path}.${key}`, `multiple values for oneof ${oneof}`);
    }
    if (later && oneof !== undefined && value === null && !(inner instanceof protobuf.Type)) {
      throw new GrpcMessageError(`${path}.${key}`, "null for a oneof's scalar member: ghz's error");
    }
    const check = (v: unknown, at: string) => checkFields(inner as protobuf.Type, v, at, later);
    let deep = value;
    if (inner instanceof protobuf.Type && value !== null && !field.map) {
      if (!field.repeated) deep = check(value, `${path}.${key}`);
      else if (Array.isArray(value)) deep = value.map((v, k) => check(v, `${path}.${key}[${k}]`));
    }
    kept.set(oneof ?? key, [key, deep]);
  }
  return Object.fromEntries(kept.values());
}

/** Seconds of each of Go's duration units (µs and μs read as us). */
const SECONDS_OF: Record<string, number> = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
const GO_PART = /(\d+\.?\d*|\.\d+)(ns|[uµμ]s|ms|s|m|h)/g;

/** Go's duration text ("1500ms", "1h2m") in proto3 JSON's form ("1.5s"), as ghz's JSON reader takes it. */
function durationJson(text: string): string {
  if (!new RegExp(`^[-+]?(0|(${GO_PART.source})+)$`).test(text)) return text;
  let seconds = 0;
  for (const [, n, unit] of text.matchAll(GO_PART)) {
    seconds += Number(n) * SECONDS_OF[unit.replace(/^[µμ]/, "u")];
  }
  return `${text.startsWith("-") ? "-" : ""}${seconds.toFixed(9).replace(/\.?0+$/, "")}s`;
}

/** A field's proto3 JSON name: its proto name in lowerCamelCase. */
function jsonNameOf(field: protobuf.Field): string {
  return field.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
