/**
 * @module
 * A `multipart/form-data` body as Go's mime/multipart and Python's requests lay it out (k6's `http.file`
 * forms, Locust's `files=`): a random boundary (Go's 60 hex digits, requests' 32), CRLF lines, a part
 * per field.
 */
import { concatBytes } from "../../system/copy_bytes.ts";

const encoder = new TextEncoder();

/** A form field's text, or a file: its name, type and bytes. */
export type FormPart = { name: string; text: string } | {
  name: string;
  filename: string;
  type: string;
  bytes: Uint8Array;
};

/** The body, and its Content-Type naming the boundary. */
export function multipart(parts: FormPart[], boundaryBytes = 30): { body: Uint8Array; contentType: string } {
  const random = crypto.getRandomValues(new Uint8Array(boundaryBytes));
  const boundary = Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("");
  const chunks: Uint8Array[] = [];
  for (const [i, part] of parts.entries()) {
    const head = "bytes" in part
      ? `Content-Disposition: form-data; name="${quote(part.name)}"; filename="${quote(part.filename)}"\r\n` +
        `Content-Type: ${part.type}\r\n`
      : `Content-Disposition: form-data; name="${quote(part.name)}"\r\n`;
    chunks.push(encoder.encode(`${i === 0 ? "" : "\r\n"}--${boundary}\r\n${head}\r\n`));
    chunks.push("bytes" in part ? part.bytes : encoder.encode(part.text));
  }
  chunks.push(encoder.encode(`${parts.length === 0 ? "" : "\r\n"}--${boundary}--\r\n`));
  return { body: concatBytes(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A name in a Content-Disposition: backslash and quote escaped, as Go's escapeQuotes does. */
function quote(s: string): string {
  return s.replaceAll("\\", "\\\\").replaceAll('"', '\\"');
}
