/**
 * @module
 * A k6 request's body as k6 encodes it: text and bytes as they are, an object as a urlencoded form, one
 * holding an `http.file(...)` as `multipart/form-data` laid out as Go's writer does; and `http.file` itself.
 */
import { concatBytes } from "../../../system/copy_bytes.ts";
import { bytesOf } from "./encoding.ts";

const encoder = new TextEncoder();

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
  if (values.some((v) => v instanceof FileData)) return multipart(body, headers);
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    if (Array.isArray(v)) { for (const one of v) form.append(k, formValue(one)); }
    else form.append(k, formValue(v));
  }
  setContentType(headers, "application/x-www-form-urlencoded");
  return form.toString();
}

/** One form value: text as it is, null and nested values empty (as k6 sends them), the rest as text. */
function formValue(v: unknown): string {
  if (v === null || v === undefined || typeof v === "object") return "";
  return String(v);
}

function setContentType(headers: Record<string, string>, type: string): void {
  if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["Content-Type"] = type;
}

/** `multipart/form-data` as Go's mime/multipart writes it (a random 60-hex boundary, CRLF lines). */
function multipart(body: Record<string, unknown>, headers: Record<string, string>): Uint8Array {
  const boundary = randomBoundary();
  const parts: Uint8Array[] = [];
  let first = true;
  for (const [k, v] of Object.entries(body)) {
    const head = v instanceof FileData
      ? `Content-Disposition: form-data; name="${quote(k)}"; filename="${quote(v.filename)}"\r\n` +
        `Content-Type: ${v.content_type}\r\n`
      : `Content-Disposition: form-data; name="${quote(k)}"\r\n`;
    parts.push(encoder.encode(`${first ? "" : "\r\n"}--${boundary}\r\n${head}\r\n`));
    parts.push(v instanceof FileData ? bytesOf(v.data) : encoder.encode(formValue(v)));
    first = false;
  }
  parts.push(encoder.encode(`${first ? "" : "\r\n"}--${boundary}--\r\n`));
  setContentType(headers, `multipart/form-data; boundary=${boundary}`);
  return concatBytes(parts);
}

/** A name in a Content-Disposition: backslash and quote escaped, as k6's escapeQuotes does. */
function quote(s: string): string {
  return s.replaceAll("\\", "\\\\").replaceAll('"', '\\"');
}

function randomBoundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(30));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
