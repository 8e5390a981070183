/**
 * @module
 * The contract between a parent and a built-in target's process (child_main.ts), apart from the servers'
 * code so the parent does not load Hono, the proxy or the gRPC endpoints.
 */
import type { BalanceMode } from "./balancer/balancer.ts";
import type { CompressMode } from "./app/compress.ts";
import type { CmsSpec } from "./spec.ts";

export type ChildSpec =
  & {
    host: string;
    port: number;
    reusePort?: boolean;
    watchStdin?: boolean;
    /** Serve HTTPS with these PEM files (targets/tls_cert.ts). */
    tls?: { certFile: string; keyFile: string };
  }
  & (
    | {
      role: "app";
      compress?: CompressMode;
      cacheTtlSec?: number;
      staticDir?: string;
      redisUrl?: string;
      cms?: CmsSpec;
      /** Also serve the gRPC endpoints (grpc_endpoints.ts) on this port, with the same TLS. */
      grpcPort?: number;
    }
    | { role: "balancer"; upstreams: string[]; mode: BalanceMode }
    | {
      role: "proxy";
      upstream: string;
      /** An `https:` upstream: the CA file to verify it with, or no verification. */
      upstreamTls?: { caFile?: string; insecure?: boolean };
      redisUrl: string;
      cacheTtlSec?: number;
      rateLimit?: { limit: number; windowMs: number };
    }
  );

/** Prefix of the stdout line announcing `{ url, pid }` once the server listens. */
export const READY_PREFIX = "LOADLAB_TARGET_READY ";
