/**
 * @module
 * Response compression for the built-in target, as Express `compression`: bodies under 1 KiB and images
 * skipped. Brotli at quality 5: the default 11 would make every dynamic response CPU-bound.
 */
import { brotliCompress, constants, gzip } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import type { CompressMode } from "../spec.ts";

export type Encoding = "gzip" | "br";

/** Express `compression`'s default. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** The encoding to use for a request, or null. `true` prefers brotli, then gzip. */
export function negotiateEncoding(acceptEncoding: string | null, mode: CompressMode): Encoding | null {
  if (!mode || !acceptEncoding) return null;
  const accepted = new Set(
    acceptEncoding.split(",").map((p) => p.trim().split(";")).filter((p) => p[1]?.trim() !== "q=0")
      .map((p) => p[0].trim().toLowerCase()),
  );
  if (mode !== "gzip" && accepted.has("br")) return "br";
  if (mode !== "brotli" && accepted.has("gzip")) return "gzip";
  return null;
}

/** Text-like types worth compressing; images and archives are already compressed. */
export function isCompressible(contentType: string | null): boolean {
  if (!contentType) return false;
  return /^(text\/|application\/(json|javascript|xml)|image\/svg\+xml)/.test(contentType);
}

/** Compresses on libuv's thread pool so the event loop keeps serving meanwhile. */
export function compressBytes(bytes: Uint8Array, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Uint8Array) => err ? reject(err) : resolve(new Uint8Array(out));
    if (encoding === "gzip") gzip(bytes, { level: 6 }, done);
    else brotliCompress(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }, done);
  });
}

export function compressMiddleware(mode: CompressMode): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const encoding = negotiateEncoding(c.req.header("accept-encoding") ?? null, mode);
    const res = c.res;
    if (!encoding || !res.body || res.headers.has("content-encoding")) return;
    if (!isCompressible(res.headers.get("content-type"))) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.append("vary", "accept-encoding");
    if (body.length < COMPRESS_THRESHOLD_BYTES) {
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    headers.set("content-encoding", encoding);
    headers.delete("content-length");
    c.res = new Response(await compressBytes(body, encoding), { status: res.status, headers });
  };
}
