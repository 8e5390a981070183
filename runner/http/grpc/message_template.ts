/**
 * @module
 * A gRPC message with `{{ placeholders }}` read against its type once, before the load, into the plain
 * `GrpcBodySpec` workers fill per call: fixed fields encoded now, each placeholder a slot of its field's
 * kind; what cannot fit whatever the values is a `GrpcMessageError` naming its path.
 */
import protobuf from "protobufjs";
import type { GrpcBodySpec, GrpcMessageSpec, GrpcSlotSpec } from "../grpc_body_spec.ts";
import { GRPC_SLOT_KINDS } from "../grpc_body_spec.ts";
import { hasPlaceholder, placeholdersOf } from "../template.ts";
import {
  checkFields,
  encodeMessage,
  fieldOf,
  GrpcMessageError,
  objectOf,
  parseMessageText,
  WELL_KNOWN,
} from "./message.ts";
import { concatBytes } from "../../../system/copy_bytes.ts";

/** Whether a message's JSON has a whole placeholder anywhere (a stray `{{` is the value's own text). */
function hasMessagePlaceholder(json: unknown): boolean {
  const text = typeof json === "string" ? json : JSON.stringify(json) ?? "";
  return hasPlaceholder(text) && placeholdersOf(text).length > 0;
}

/** The text of `-b` with placeholders written as JSON values quoted, so it parses. */
export function quotePlaceholders(text: string): string {
  let out = "", inString = false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++k] ?? "";
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "{" && text[k + 1] === "{") {
      const end = text.indexOf("}}", k);
      if (end < 0) return out + text.slice(k);
      out += JSON.stringify(text.slice(k, end + 2));
      k = end + 1;
    } else out += c;
  }
  return out;
}

/** The call's messages in `text` (`-b`) as a template: one, or a client stream's; `names` those allowed. */
export function bodySpecOfText(
  type: protobuf.Type,
  text: string,
  stream: boolean,
  names?: readonly string[],
  later = false,
): GrpcBodySpec {
  const json = parseMessageText(quotePlaceholders(text));
  if (names !== undefined) checkNames(JSON.stringify(json) ?? "", names);
  const list = stream && Array.isArray(json) ? json : [json];
  const at = (k: number) => stream && Array.isArray(json) ? `message[${k}]` : "message";
  return { messages: list.map((m, k) => messageSpecOf(type, checkFields(type, m, at(k), later), at(k))) };
}

function checkNames(text: string, names: readonly string[]): void {
  for (const p of placeholdersOf(text)) {
    if (typeof p === "string") throw new GrpcMessageError("message", p);
    if (p.kind === "name" && !names.includes(p.name)) {
      throw new GrpcMessageError(
        "message",
        `{{ ${p.name} }} is unknown: no data column or capture has that name; ` +
          "use a built-in function ($randomNumber(min,max), $randomString(n)), a --data-file column, or an experiment file's data: column",
      );
    }
  }
}

function messageSpecOf(type: protobuf.Type, json: unknown, path: string): GrpcMessageSpec {
  if (!hasMessagePlaceholder(json)) return { pieces: [encodeMessage(type, json, path)], slots: [] };
  if (WELL_KNOWN.test(type.fullName)) {
    throw new GrpcMessageError(
      path,
      `placeholders are not taken in a ${type.fullName.slice(1)}; write it whole`,
    );
  }
  const pieces: Uint8Array[] = [];
  const slots: GrpcSlotSpec[] = [];
  let fixed: Uint8Array[] = [];
  const add = (slot: GrpcSlotSpec) => {
    pieces.push(concatBytes(fixed));
    fixed = [];
    slots.push(slot);
  };
  for (const [key, value] of Object.entries(objectOf(type, json, path))) {
    const field = fieldOf(type, key, path);
    const at = `${path}.${key}`;
    if (!hasMessagePlaceholder(value)) fixed.push(encodeMessage(type, { [key]: value }, path));
    else if (field.map) {
      throw new GrpcMessageError(at, "placeholders are not taken in map fields; write the map whole");
    } else if (!field.repeated) add(slotOf(field, value, at));
    else if (!Array.isArray(value)) {
      throw new GrpcMessageError(at, `expected a list, got ${JSON.stringify(value)}`);
    } else {
      value.forEach((v, k) => {
        if (hasMessagePlaceholder(v)) add(slotOf(field, v, `${at}[${k}]`));
        else fixed.push(encodeMessage(type, { [key]: [v] }, path));
      });
    }
  }
  pieces.push(concatBytes(fixed));
  return { pieces, slots };
}

function slotOf(field: protobuf.Field, value: unknown, path: string): GrpcSlotSpec {
  field.resolve();
  const inner = field.resolvedType;
  if (inner instanceof protobuf.Type) {
    return { field: field.id, kind: "message", path, message: messageSpecOf(inner, value, path) };
  }
  if (typeof value !== "string") {
    throw new GrpcMessageError(
      path,
      `expected a value of a ${field.type} field, got ${JSON.stringify(value)}`,
    );
  }
  if (inner instanceof protobuf.Enum) {
    return { field: field.id, kind: "enum", path, text: value, enumValues: inner.values };
  }
  const kind = GRPC_SLOT_KINDS.find((k) => k === field.type && k !== "enum" && k !== "message");
  if (kind === undefined) throw new GrpcMessageError(path, `a ${field.type} field takes no placeholder`);
  return { field: field.id, kind, path, text: value };
}
