/**
 * @module
 * The live dashboard's control endpoint (`/control`): `GET` the steering state, `POST` a change.
 */
import type { RunSteering } from "../../runner/steering.ts";
import { isRecord } from "../../validation/json_document.ts";
import { isOwnHost } from "./local_http.ts";

/** The header the dashboard page and `loadlab steer` send the token in. */
export const TOKEN_HEADER = "x-loadlab-token";
/** A change's JSON is a few fields; more is not a change. */
const MAX_BODY_BYTES = 4096;

/** A new token: 32 random bytes as hex. */
export function newSteerToken(): string {
  return crypto.getRandomValues(new Uint8Array(32)).toHex();
}

/** Where the endpoint listens and who may use it. `steering` null: steering is off, for `offReason`. */
export interface ControlOptions {
  steering: RunSteering | null;
  offReason: string;
  token: string;
  /** The dashboard's listening host and port (an `Origin` must name this server). */
  listenHost: string;
  port: number;
}

export async function controlResponse(req: Request, opts: ControlOptions): Promise<Response> {
  if (req.method !== "GET" && req.method !== "POST") return answer(405, { error: "use GET or POST" });
  if (!sameOrigin(req.headers.get("origin"), opts)) {
    return answer(403, { error: "forbidden: a control request must come from the dashboard's own page" });
  }
  if (opts.steering === null) return answer(403, { error: `steering is off: ${opts.offReason}` });
  if (!sameToken(req.headers.get(TOKEN_HEADER), opts.token)) {
    return answer(403, {
      error: `forbidden: the run's token is missing or wrong (the ${TOKEN_HEADER} header)`,
    });
  }
  if (req.method === "GET") return answer(200, opts.steering.state());
  const body = await readJson(req);
  if (typeof body === "string") return answer(400, { error: body });
  const by = body.by === "terminal" ? "terminal" : "dashboard";
  const outcome = opts.steering.request(body, by);
  if (!outcome.ok) return answer(outcome.status, { error: outcome.reason });
  return answer(200, { change: outcome.change, state: outcome.state });
}

/** No `Origin` (a program, not a page), or this server's own (any loopback name, or `--host`). */
function sameOrigin(origin: string | null, opts: ControlOptions): boolean {
  if (origin === null) return true;
  const url = URL.parse(origin);
  if (url === null) return false;
  const own = isOwnHost(url.hostname.toLowerCase(), opts.listenHost);
  return url.protocol === "http:" && own && Number(url.port || 80) === opts.port;
}

/** Compares in time independent of where the first difference is. */
function sameToken(given: string | null, token: string): boolean {
  if (given === null || given.length !== token.length) return false;
  let diff = 0;
  for (let i = 0; i < token.length; i++) diff |= given.charCodeAt(i) ^ token.charCodeAt(i);
  return diff === 0;
}

/** The JSON object of a POST, or why it is not one. */
async function readJson(req: Request): Promise<Record<string, unknown> | string> {
  if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    return "send the change as JSON (content-type: application/json)";
  }
  const bytes = new Uint8Array(await req.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) return `a change is at most ${MAX_BODY_BYTES} bytes`;
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes));
    if (isRecord(value)) return value;
  } catch { /* answered below */ }
  return 'expected a JSON object such as {"action": "pause"}';
}

function answer(status: number, body: unknown): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}
