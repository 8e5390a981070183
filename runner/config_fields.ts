/**
 * @module
 * The fields every attack config has, whatever its load model: the target URL, what is sent (a request
 * mix, flows, a session script, data rows), how (connection reuse, transport, protocol, TLS, source
 * addresses), how long to wait, how many workers, how results are sampled, and where this generator's
 * share of a split load lies. runner/config.ts joins them with each model's own fields into the one
 * union; runner/config_checks.ts reads them for the checks across fields. Their own file so both take the
 * one definition without importing each other. Defaults live only here, in the schema.
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

/** Bounds of `maxMemoryMb`: below the least loadlab holds, a run would be ended as it starts. */
const MIN_MEMORY_MB = 256;
const MAX_MEMORY_MB = 1_048_576;

/** Fields every model has. A new common field is one line here. */
export const commonFields = {
  url: z.string().url("url must be an absolute http://, https://, ws:// or wss:// URL").refine(
    (u) => /^(https?|wss?):\/\//.test(u),
    "url must start with http://, https://, ws:// or wss://",
  ).refine(
    (u) => !URL.canParse(u) || new URL(u).port !== "0",
    "port 0 is no server's (nothing can connect to it): give the port the target listens on",
  ),
  /** WebSocket (a ws:// or wss:// url): the messages and what each connection does (runner/http/ws/). */
  ws: wsConfigSchema.optional(),
  requestMix: z.array(requestSpecSchema).min(1).prefault([{}]),
  /**
   * Sessions instead of single requests (not with a request mix of your own; not the throughput
   * model): each arrival (open pacing) or each turn of a connection (closed) runs one session of a
   * flow picked by weight. The count model's `requests` then counts sessions.
   */
  flows: z.array(flowSpecSchema).min(1).optional(),
  /**
   * A session script instead of requests or flows (runner/script/): each arrival (open) or each turn of
   * a connection (closed) calls its default export once. The count model's `requests` counts sessions.
   */
  script: scriptSpecSchema.optional(),
  /** One row per arrival (a request of the mix or a session) fills the requests' `{{ column }}`. */
  data: dataSpecSchema.optional(),
  /** A cookie jar per session (flows only): absent means on for flows. */
  cookies: z.boolean().optional(),
  /**
   * `keep-alive`: arrivals reuse idle connections. `per-arrival`: each arrival (a session, or a single
   * request without flows) opens its own connection and closes it after, as Artillery does per user.
   */
  connection: z.enum(["keep-alive", "per-arrival"]).default("keep-alive"),
  timeoutMs: cappedMs("timeout").positive("timeout must be > 0").default(10_000),
  /** Cap of one response head (status line, headers, interim 1xx heads); a bigger one is a `parse` error. */
  maxHeaderBytes: z.number().int().min(1024, "max header bytes must be >= 1024").default(64 * 1024),
  pipelining: z.number().int().min(1, "pipelining must be >= 1").max(256).default(1),
  /**
   * Socket transport, chosen once per run and recorded in results: `deno` (Deno.connect), `epoll` (the
   * Linux fast path over libc through FFI, https: through the system's OpenSSL; falls back to deno
   * with the reason recorded), `auto` (epoll wherever it can run, except a verified https: run
   * without a client certificate, which stays on Deno.startTls; else deno; see docs/TLS.md),
   * `io_uring` (experimental: plain-TCP closed models through one ring per worker; else epoll, the
   * reason recorded).
   */
  transport: z.enum(["auto", "epoll", "deno", "io_uring"]).default("auto"),
  /**
   * Local addresses each connection is bound to in turn before it connects (runner/source_addresses.ts):
   * past the ~28,000 local ports one address has for one destination. Epoll transport only.
   */
  sourceAddresses: z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
    const out = expandSourceAddresses(v);
    if (!("problem" in out)) return out;
    ctx.addIssue({ code: "custom", message: `source addresses: ${out.problem}` });
    return z.NEVER;
  }).optional(),
  /**
   * HTTP version: `http1`; `h2` (HTTP/2 over TLS by ALPN; on an http: URL, h2c with prior knowledge);
   * `h2c` (cleartext HTTP/2 with prior knowledge, http: only); `auto` (ALPN's choice on https: asked
   * once before the run; HTTP/1.1 on http:). Recorded per run with what was used.
   */
  protocol: z.enum(["http1", "h2", "h2c", "h3", "auto"]).default("http1"),
  /**
   * gRPC (runner/http/grpc/): the mix's requests are calls (POSTs of length-prefixed messages, encoded
   * before the run from the schema), their answers judged by gRPC's status; over h2 or h2c.
   */
  grpc: z.strictObject({
    /** The cap of one received message, bytes (grpc-go's 4 MiB unless set). */
    maxReceiveBytes: z.number().int().min(1, "max receive bytes must be >= 1").max(0x7fff_ffff)
      .default(4 * 1024 * 1024),
    /** The schema as a FileDescriptorSet's bytes: what the flows' gRPC steps call and read replies by. */
    schema: z.instanceof(Uint8Array).optional(),
    /**
     * The schema is the server's, asked of its reflection service when the run starts (grpc/
     * reflected_run.ts): it fills `schema`, and `call` (then) becomes the request mix.
     */
    reflect: z.literal(true).optional(),
    /** With `reflect`: the one call the run makes, made from the reflected schema. */
    call: grpcStepSchema.optional(),
  }).optional(),
  /** HTTP/2: concurrent streams per connection (h2load's `-m`). */
  streams: z.number().int().min(1, "streams must be >= 1").max(1000, "streams must be <= 1000").default(1),
  /**
   * HTTP/2 over fixed connections: the streams in flight over all of them, dealt over the connections in
   * turn (ghz's `-c` over `--connections`), each holding at most `streams`; absent: `streams` on each.
   */
  concurrency: z.number().int().min(1, "concurrency must be >= 1").optional(),
  /** HTTP/2: the receive windows advertised (each stream's and the connection's), bytes. */
  h2WindowBytes: z.number().int().min(65_535, "h2 window must be >= 65535 bytes")
    .max(0x7fff_ffff, "h2 window must be < 2 GiB").default(16 * 1024 * 1024),
  /** TLS options (runner/http/tls/options.ts); `connectTo` applies to http: too. */
  tls: tlsOptionsSchema.optional(),
  workers: z.number().int().min(1, "workers must be >= 1").max(64).default(1),
  /**
   * loadlab's own memory (its RSS: the main isolate and every worker) past which the workers still running
   * are ended and the run is flagged incomplete, naming memory (runner/worker/memory_limit.ts); absent: half
   * of what the machine has available at the start, from 1,024 MB to 2,048 MB (more with more workers).
   */
  maxMemoryMb: z.number().int().min(
    MIN_MEMORY_MB,
    `max memory must be >= ${MIN_MEMORY_MB} MB (loadlab itself holds 150-200 MB as a load starts), or left out to ` +
      "have it chosen from the machine's free memory",
  ).max(MAX_MEMORY_MB, `max memory must be <= ${MAX_MEMORY_MB} MB (1 TiB)`).optional(),
  intervalMs: z.number().min(10, "interval must be >= 10ms").default(250),
  /** Keep each interval's encoded histogram in results (exact warm-up cuts, per-phase percentiles). */
  intervalHistograms: z.boolean().default(true),
  warmupMs: cappedMs("warm-up").min(0, "warm-up must be >= 0").default(0),
  /**
   * Before t0, bring the generator's own hot path to optimized code against an in-process loopback
   * sink (a short burst, never the target). Off: the first requests run on cold code.
   */
  generatorWarmup: z.boolean().default(true),
  /** Open models: a send later than this is dropped (counted) instead of sent. */
  lateBoundMs: cappedMs("late bound").positive().default(1_000),
  /** Time given to in-flight requests after the end before they are counted as timeouts. */
  gracefulStopMs: cappedMs("graceful stop").min(0).default(2_000),
  logFile: z.string().optional(),
  /**
   * A recorded schedule replayed (`loadlab run --replay`): the changes a steered run had, each applied at
   * its instant as it was live (results/schema/steering.ts).
   */
  steering: steeringSchema.optional(),
  /**
   * This generator's execution segment when one load is split over several machines (k6's execution
   * segments): `index` of `count`, from 0. Open models take every `count`-th send of the one schedule
   * (send j goes to segment j mod count), closed ones an even share of the connections and the count,
   * so the segments together are the configured load, not N copies of it. Absent: the whole load.
   */
  segment: z.strictObject({
    index: z.number().int().min(0, "segment index must be >= 0"),
    count: z.number().int().min(1, "segment count must be >= 1").max(10_000),
  }).refine((s) => s.index < s.count, { message: "segment index must be below the count", path: ["index"] })
    .optional(),
  /**
   * Wall-clock instant (ms since the epoch) at which the schedule starts, warm-up included, so the
   * segments on several machines line up; absent: as soon as the workers are ready.
   */
  startAtEpochMs: z.number().int().positive().optional(),
};

/** The common fields once validated, defaults filled. */
export type CommonFields = z.output<z.ZodObject<typeof commonFields>>;
