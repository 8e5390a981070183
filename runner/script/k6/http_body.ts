/**
 * @module
 * A k6 request's body as k6 encodes it: text and bytes as they are, an object as a urlencoded form, one
 * holding an `http.file(...)` as `multipart/form-data` laid out as Go's writer does; and `http.file` itself.
 */
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { multipart } from "../multipart.ts";
import { bytesOf } from "./encoding.ts";

class FileData {
  constructor(
    readonly data: string | ArrayBuffer | Uint8Array,
    readonly filename: string,
    readonly content_type: string,
  ) {}
}

/** k6's `http.file`: a string or bytes, named (default: the time in ns) and typed (default octet-stream). */
export function file(
  data: string | ArrayBuffer | Uint8Array,
  filename?: string,
  contentType?: string,
): FileData {
  if (typeof data !== "string" && !(data instanceof ArrayBuffer) && !(data instanceof Uint8Array)) {
    throw new TypeError(`http.file: invalid type ${typeof data}, expected string or ArrayBuffer`);
  }
  const name = filename ??
    String(BigInt(Math.round(performance.timeOrigin + performance.now())) * 1_000_000n);
  return new FileData(data, name, contentType ?? "application/octet-stream");
}

export type Body = string | ArrayBuffer | Uint8Array | Record<string, unknown> | null | undefined;

export function isFormBody(body: Body): body is Record<string, unknown> {
  return body !== null && typeof body === "object" && !(body instanceof ArrayBuffer) &&
    !(body instanceof Uint8Array);
}

/** The body to send; a form sets its Content-Type in `headers` unless the script gave one. */
export function encodeBody(body: Body, headers: Record<string, string>): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  const values = Object.values(body);
  if (values.some((v) => v instanceof FileData)) return multipartForm(body, headers);
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    if (Array.isArray(v)) { for (const one of v) form.append(k, formValue(one)); }
    else form.append(k, formValue(v));
  }
  setContentType(headers, "application/x-www-form-urlencoded");
  return form.toString();
}

/** k6's `compression`: the body compressed by each algorithm named (`"gzip"`, `"deflate, br"`) in turn. */
export function compress(
  body: string | Uint8Array | undefined,
  algorithms: string,
  headers: Record<string, string>,
) {
  // As k6's: an empty list names no algorithm, the body sent as it is.
  if (algorithms.trim() === "") return body;
  const names = algorithms.split(",").map((a) => a.trim()),
    bad = names.find((n) => !Object.hasOwn(SQUEEZE, n));
  if (bad !== undefined) throw new TypeError(`unknown compression algorithm ${bad}: gzip, deflate or br`);
  if (body === undefined) return body;
  headers["Content-Encoding"] = names.join(", ");
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return names.reduce((b, n) => new Uint8Array(SQUEEZE[n](b)), bytes);
}

const SQUEEZE: Record<string, (b: Uint8Array) => Uint8Array> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

/** One form value: text as it is, null and nested values empty (as k6 sends them), the rest as text. */
function formValue(v: unknown): string {
  if (v === null || v === undefined || typeof v === "object") return "";
  return String(v);
}

function setContentType(headers: Record<string, string>, type: string): void {
  if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["Content-Type"] = type;
}

/** A form holding an `http.file(...)`, as Go's multipart writer lays it out. */
function multipartForm(body: Record<string, unknown>, headers: Record<string, string>): Uint8Array {
  const { body: bytes, contentType } = multipart(
    Object.entries(body).map(([name, v]) =>
      v instanceof FileData
        ? { name, filename: v.filename, type: v.content_type, bytes: bytesOf(v.data) }
        : { name, text: formValue(v) }
    ),
  );
  setContentType(headers, contentType);
  return bytes;
}
