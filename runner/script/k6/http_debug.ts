/**
 * @module
 * k6's `--http-debug[=full]`: each request a k6 script's session sends and its response, on stderr as k6
 * dumps them. Bounded per worker, bodies cut, credential fields' values `[redacted]`.
 */
import { isSecretName } from "../../../results/secret_finder.ts";
import { isolateFlags } from "./isolate_flags.ts";
import type { Response } from "../session.ts";
import type { RequestHop } from "./points_out.ts";

/** How many exchanges `--http-debug` prints per worker: a long run's debug stays readable. */
export const HTTP_DEBUG_MAX = 100;
const HTTP_DEBUG_BODY_CHARS = 2_048;

export const httpDebug: "headers" | "full" | null = isolateFlags.httpDebug ?? null;

let printed = 0;
const encoder = new TextEncoder();

/** Prints one exchange (a hop of a redirect is one), unless `HTTP_DEBUG_MAX` were printed already. */
export function debugExchange(url: string, hop: RequestHop, raw: Response): void {
  if (httpDebug === null || printed > HTTP_DEBUG_MAX) return;
  if (++printed > HTTP_DEBUG_MAX) {
    return write(`http-debug: ${HTTP_DEBUG_MAX} exchanges printed by this worker; the rest are not\n`);
  }
  const u = new URL(url, "http://localhost");
  const sent = [`${hop.verb} ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`];
  for (const [name, value] of Object.entries(hop.headers)) sent.push(field(name, value));
  let text = `Request:\n${sent.join("\n")}\n${bodyText(hop.sent)}\n`;
  if (raw.status === 0) {
    text += `Response:\n(none: ${raw.failure?.kind ?? "failed"}: ${raw.failure?.message ?? ""})\n`;
  } else {
    text += `Response:\n${headOf(raw)}\n${bodyText(httpDebug === "full" ? raw.text() : undefined)}\n`;
  }
  write(text);
}

function headOf(raw: Response): string {
  const head = (raw as { headText?: () => string }).headText?.();
  if (head === undefined) return `HTTP/2.0 ${raw.status}`;
  const [status, ...lines] = head.split("\r\n");
  return [
    status,
    ...lines.map((line) => {
      const colon = line.indexOf(":");
      return colon <= 0 ? line : field(line.slice(0, colon), line.slice(colon + 1).trim());
    }),
  ].join("\n");
}

const field = (name: string, value: string): string =>
  `${name}: ${isSecretName(name) ? "[redacted]" : value}`;

function bodyText(body: string | Uint8Array | undefined): string {
  if (httpDebug !== "full" || body === undefined || body.length === 0) return "";
  if (typeof body !== "string") return `\n(${body.length} bytes)\n`;
  const cut = body.length > HTTP_DEBUG_BODY_CHARS;
  return `\n${body.slice(0, HTTP_DEBUG_BODY_CHARS)}${cut ? `... (${body.length} chars)` : ""}\n`;
}

function write(text: string): void {
  try {
    Deno.stderr.writeSync(encoder.encode(text));
  } catch {
    // A stderr that takes no more loses the debug, never the run.
  }
}
