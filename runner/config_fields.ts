/**
 * @module
 * The fields every attack config has, whatever its load model. Their own file so runner/config.ts (the
 * union with each model's fields) and runner/config_checks.ts share one definition. Defaults live here only.
 */
import { z } from "zod";
import { expandSourceAddresses } from "./source_addresses.ts";
import { wsConfigSchema } from "./http/ws/config.ts";
import { cappedMs } from "./load/models/fields.ts";
import { tlsOptionsSchema } from "./http/tls/options.ts";
import { steeringSchema } from "../results/schema/steering.ts";
import { requestSpecSchema } from "./request_spec.ts";
import { dataSpecSchema } from "./session_schema.ts";
import { scriptSpecSchema } from "./script/spec.ts";
import { grpcStepSchema } from "./grpc_step_spec.ts";
import { flowSpecSchema } from "./flow_spec.ts";

/** Bounds of `maxMemoryMb`: below the least loadlab holds, a run would end as it starts. */
const MIN_MEMORY_MB = 256;
const MAX_MEMORY_MB = 1_048_576;

/** Fields every model has. */
export const commonFields = {
  url: z.string().url("url must be an absolute http://, https://, ws:// or wss:// URL").refine(
    (u) => /^(https?|wss?):\/\//.test(u),
    "url must start with http://, https://, ws:// or wss://",
  ).refine(
    (u) => !URL.canParse(u) || new URL(u).port !== "0",
    "port 0 is no server's (nothing can connect to it): give the port the target listens on",
  ),
  ws: wsConfigSchema.optional(),
  requestMix: z.array(requestSpecSchema).min(1).prefault([{}]),
  /** Sessions of a flow picked by weight, one per arrival or connection turn (`requests` counts sessions). */
  flows: z.array(flowSpecSchema).min(1).optional(),
  /** A session script whose default export runs once per arrival or connection turn. */
  script: scriptSpecSchema.optional(),
  data: dataSpecSchema.optional(),
  /** A cookie jar per session (flows only; on unless false). */
  cookies: z.boolean().optional(),
  /** `per-arrival`: each arrival opens its own connection and closes it after (Artillery's per user). */
  connection: z.enum(["keep-alive", "per-arrival"]).default("keep-alive"),
  timeoutMs: cappedMs("timeout").positive("timeout must be > 0").default(10_000),
  /** Cap of one response head (status line, headers, 1xx heads); a bigger one is a `parse` error. */
  maxHeaderBytes: z.number().int().min(1024, "max header bytes must be >= 1024").default(64 * 1024),
  pipelining: z.number().int().min(1, "pipelining must be >= 1").max(256).default(1),
  /**
   * Socket transport, chosen once per run and recorded: `deno`, `epoll` (libc through FFI, OpenSSL for
   * https:), `auto` (epoll where it can run; docs/TLS.md), `io_uring` (experimental, closed models).
   */
  transport: z.enum(["auto", "epoll", "deno", "io_uring"]).default("auto"),
  /** Local addresses connections bind to in turn, past one address's ~28,000 ports (epoll only). */
  sourceAddresses: z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
    const out = expandSourceAddresses(v);
    if (!("problem" in out)) return out;
    ctx.addIssue({ code: "custom", message: `source addresses: ${out.problem}` });
    return z.NEVER;
  }).optional(),
  /** HTTP version; `auto` asks ALPN once before the run on https: (HTTP/1.1 on http:); h3 is QUIC. */
  protocol: z.enum(["http1", "h2", "h2c", "h3", "auto"]).default("http1"),
  /** gRPC: the mix's requests are calls encoded before the run, judged by gRPC's status; over h2 or h2c. */
  grpc: z.strictObject({
    /** Cap of one received message, bytes (grpc-go's 4 MiB default). */
    maxReceiveBytes: z.number().int().min(1, "max receive bytes must be >= 1").max(0x7fff_ffff)
      .default(4 * 1024 * 1024),
    /** The schema as a FileDescriptorSet's bytes. */
    schema: z.instanceof(Uint8Array).optional(),
    /** Ask the server's reflection service for the schema at start; `call` becomes the request mix. */
    reflect: z.literal(true).optional(),
    call: grpcStepSchema.optional(),
  }).optional(),
  /** HTTP/2: concurrent streams per connection (h2load's `-m`). */
  streams: z.number().int().min(1, "streams must be >= 1").max(1000, "streams must be <= 1000").default(1),
  /** HTTP/2 over fixed connections: streams in flight over all (ghz's `-c`); absent: `streams` each. */
  concurrency: z.number().int().min(1, "concurrency must be >= 1").optional(),
  h2WindowBytes: z.number().int().min(65_535, "h2 window must be >= 65535 bytes")
    .max(0x7fff_ffff, "h2 window must be < 2 GiB").default(16 * 1024 * 1024),
  tls: tlsOptionsSchema.optional(),
  workers: z.number().int().min(1, "workers must be >= 1").max(64).default(1),
  /**
   * loadlab's own RSS past which running workers are ended and the run flagged incomplete; absent: half
   * the machine's available memory, from 1,024 to 2,048 MB (more with more workers).
   */
  maxMemoryMb: z.number().int().min(
    MIN_MEMORY_MB,
    `max memory must be >= ${MIN_MEMORY_MB} MB (loadlab itself holds 150-200 MB as a load starts), or left out to ` +
      "have it chosen from the machine's free memory",
  ).max(MAX_MEMORY_MB, `max memory must be <= ${MAX_MEMORY_MB} MB (1 TiB)`).optional(),
  intervalMs: z.number().min(10, "interval must be >= 10ms").default(250),
  intervalHistograms: z.boolean().default(true),
  warmupMs: cappedMs("warm-up").min(0, "warm-up must be >= 0").default(0),
  /** Brings the generator's hot path to optimized code against an in-process sink before t0. */
  generatorWarmup: z.boolean().default(true),
  lateBoundMs: cappedMs("late bound").positive().default(1_000),
  gracefulStopMs: cappedMs("graceful stop").min(0).default(2_000),
  logFile: z.string().optional(),
  /** A recorded steering schedule replayed (`loadlab run --replay`). */
  steering: steeringSchema.optional(),
  /**
   * This generator's share of a load split over machines (k6's execution segments): open models take
   * every `count`-th send, closed ones an even share of connections and count.
   */
  segment: z.strictObject({
    index: z.number().int().min(0, "segment index must be >= 0"),
    count: z.number().int().min(1, "segment count must be >= 1").max(10_000),
  }).refine((s) => s.index < s.count, { message: "segment index must be below the count", path: ["index"] })
    .optional(),
  /** Epoch ms at which the schedule (warm-up included) starts, so segments on several machines line up. */
  startAtEpochMs: z.number().int().positive().optional(),
};

export type CommonFields = z.output<z.ZodObject<typeof commonFields>>;
