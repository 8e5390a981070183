/**
 * @module
 * Forwards one request to the proxy's upstream with `node:http`, buffering the answer: Deno's `fetch`
 * decompresses bodies but keeps `content-encoding`, which would corrupt compressed answers.
 */
import { Agent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { concatBytes } from "../../system/copy_bytes.ts";

/** How the proxy verifies an `https:` upstream: extra trusted CAs (PEM), or no verification at all. */
export interface UpstreamTls {
  caCerts?: string[];
  insecure?: boolean;
}

export interface UpstreamResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
}

/** Headers that describe one hop, not the message, and so are not forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "host",
  "content-length",
]);

export class Upstream {
  readonly #agent: Agent;
  readonly #request: typeof httpRequest;
  readonly hostname: string;
  readonly port: number;

  constructor(readonly baseUrl: string, tls: UpstreamTls = {}) {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`upstream must be http:// or https://, got ${baseUrl}`);
    }
    const https = url.protocol === "https:";
    this.hostname = url.hostname;
    this.port = Number(url.port || (https ? 443 : 80));
    const keepAlive = { keepAlive: true, maxSockets: 1024 };
    this.#agent = https
      ? new HttpsAgent({
        ...keepAlive,
        ca: tls.caCerts,
        rejectUnauthorized: !tls.insecure,
      }) as unknown as Agent
      : new Agent(keepAlive);
    this.#request = https ? httpsRequest as unknown as typeof httpRequest : httpRequest;
  }

  /** Sends `req` (method, path+query, headers, body) upstream and buffers the answer. */
  async send(req: Request): Promise<UpstreamResponse> {
    const url = req.url;
    const path = url.slice(url.indexOf("/", 8));
    const headers: Record<string, string> = {};
    req.headers.forEach((value, key) => {
      if (!HOP_BY_HOP.has(key)) headers[key] = value;
    });
    const body = req.body ? new Uint8Array(await req.arrayBuffer()) : null;
    if (body) headers["content-length"] = String(body.length);
    return await new Promise<UpstreamResponse>((resolve, reject) => {
      const out = this.#request(
        { hostname: this.hostname, port: this.port, path, method: req.method, headers, agent: this.#agent },
        (res) => {
          const chunks: Uint8Array[] = [];
          res.on("data", (chunk: Uint8Array) => chunks.push(chunk));
          res.on("error", reject);
          res.on(
            "end",
            () =>
              resolve({
                status: res.statusCode ?? 502,
                headers: pairs(res.rawHeaders),
                body: concatBytes(chunks),
              }),
          );
        },
      );
      out.on("error", reject);
      out.end(body ?? undefined);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push([raw[i], raw[i + 1]]);
  }
  return out;
}

/** A `Response` from a buffered upstream answer. */
export function toResponse(up: UpstreamResponse, extraHeaders?: [string, string][]): Response {
  const headers = new Headers(up.headers);
  if (extraHeaders) { for (const [k, v] of extraHeaders) headers.set(k, v); }
  const nullBody = up.status === 204 || up.status === 304 || up.body.length === 0 && up.status < 200;
  return new Response(nullBody ? null : up.body, { status: up.status, headers });
}

/** 502 with the reason, when the upstream cannot be reached. */
export function badGateway(upstream: string, err: unknown): Response {
  return Response.json({ error: `upstream ${upstream} failed: ${(err as Error).message}` }, { status: 502 });
}
