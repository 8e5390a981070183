/**
 * @module
 * The fields every attack config has, whatever its model, and `OPTIONS`, the table the CLI and files share.
 */
import { z } from "zod";
import { expandSourceAddresses } from "./source_addresses.ts";
import { wsConfigSchema } from "./http/ws/config.ts";
import {
  DEFAULT_DURATION_MS,
  DEFAULT_MAX_CONNECTIONS,
  MAX_RATE_PER_SEC,
  MAX_STAGE_CONNECTIONS,
  MAX_STAGES,
  RATE_CAP,
} from "./load/models/fields.ts";
import { tlsOptionsSchema } from "./http/tls/options.ts";
import { DEFAULT_MAX_HEADER_BYTES } from "./http/h1/response_parser.ts";
import { steeringSchema } from "../results/schema/steering.ts";
import { requestSpecSchema } from "./request_spec.ts";
import { dataSpecSchema } from "./session_schema.ts";
import { scriptSpecSchema } from "./script/spec.ts";
import { grpcStepSchema } from "./grpc_step_spec.ts";
import { flowSpecSchema } from "./flow_spec.ts";
import { type Option, option } from "./option.ts";
import { customIssue } from "../validation/mod.ts";
import { MAX_DURATION_MS, MAX_DURATION_WORDS } from "../validation/duration.ts";
import { formatCount } from "../results/text_format.ts";
import type { LoadModel } from "../results/mod.ts";

/** A duration in ms, capped at `MAX_DURATION_MS` (7 days). */
const cappedMs = (what: string) => z.number().max(MAX_DURATION_MS, `${what} must be ${MAX_DURATION_WORDS}`);

/** One arrival-rate phase (Artillery's arrivalRate / rampTo); rate 0 is a pause. */
export const phaseSchema = z.object({
  durationMs: cappedMs("phase duration").positive("phase duration must be > 0"),
  ratePerSec: z.number().min(0, "rate must be >= 0").max(MAX_RATE_PER_SEC, `rate must be ${RATE_CAP}`),
  rampToPerSec: z.number().min(0, "rampTo must be >= 0").max(MAX_RATE_PER_SEC, `rampTo must be ${RATE_CAP}`)
    .optional(),
  name: z.string().min(1).optional(),
  /** Whole arrivals in each second of the phase, the first a tick in (Artillery's ramp), for the rates. */
  perSecond: z.array(z.number().int().min(0).max(MAX_RATE_PER_SEC)).optional(),
  /** An arrival of this phase finding this many sends in flight is dropped (Artillery's maxVusers). */
  maxBusy: z.number().int().min(1).optional(),
});
export type Phase = z.infer<typeof phaseSchema>;

/** A ramp's stages, each linear to its `target` connections over `durationMs`. */
const stagesSchema = z.array(z.strictObject({
  durationMs: cappedMs("stage duration").positive("stage duration must be > 0"),
  target: z.number().int("stage target must be a whole number of connections")
    .min(0, "stage target must be >= 0")
    .max(MAX_STAGE_CONNECTIONS, `stage target must be at most ${formatCount(MAX_STAGE_CONNECTIONS)}`),
})).min(1, "needs at least one stage").max(
  MAX_STAGES,
  `at most ${MAX_STAGES} stages`,
);

/** The request timeout of a config that sets none. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Bounds of `maxMemoryMb`: below the least loadlab holds, a run would end as it starts. */
const MIN_MEMORY_MB = 256;
const MAX_MEMORY_MB = 1_048_576;

/** The options the command line and experiment files share, keyed by the config field. */
export const OPTIONS = {
  pipelining: option(
    { file: "pipelining", sweep: true, flag: "-p, --pipelining N", example: "4" },
    z.number().int().min(1, "pipelining must be >= 1").max(256).default(1),
    "requests in flight per connection (HTTP/1.1 pipelining)",
  ),
  streams: option(
    { file: "streams", sweep: true, flag: "--streams N", example: "10" },
    z.number().int().min(1, "streams must be >= 1").max(1000, "streams must be <= 1000").default(1),
    "HTTP/2, HTTP/3: concurrent streams per connection",
    "(h2load -m)",
  ),
  workers: option(
    { file: "workers", sweep: true, flag: "-w, --workers N", aliases: ["cpus"], example: "2" },
    z.number().int().min(1, "workers must be >= 1").max(64).default(1),
    "worker isolates sharing the load (like wrk -t; --cpus)",
  ),
  timeoutMs: option(
    { kind: "ms", file: "timeout", sweep: true, flag: "--timeout D", example: "5s" },
    cappedMs("timeout").positive("timeout must be > 0").default(DEFAULT_TIMEOUT_MS),
    "per-request timeout; late responses count as timeouts",
  ),
  connectTimeoutMs: option(
    { kind: "ms", file: "connectTimeout", flag: "--connect-timeout D", example: "10s" },
    cappedMs("connectTimeout").positive("connectTimeout must be > 0").optional(),
    "a TCP and TLS connect's own timeout (ghz's) [--timeout]",
  ),
  protocol: option(
    { kind: "word", file: "protocol", sweep: true, flag: "--protocol P", example: "h2" },
    z.enum(["http1", "h2", "h2c", "h3", "auto"]).default("http1"),
    "http1 | h2 | h2c | h3 | auto (h2: HTTP/2 over TLS by",
    "ALPN, h2c with prior knowledge on http://; h3: HTTP/3 over",
    "QUIC on https://, docs/HTTP3.md; auto: ALPN's choice)",
  ),
  /** `per-arrival`: each arrival opens its own connection and closes it after (Artillery's per user). */
  connection: option(
    { kind: "word", file: "connection", sweep: true },
    z.enum(["keep-alive", "per-arrival"]).default("keep-alive"),
  ),
  /** Chosen once per run and recorded. */
  transport: option(
    { kind: "word", file: "transport", sweep: true, flag: "--transport T", example: "epoll" },
    z.enum(["auto", "epoll", "deno", "io_uring"]).default("auto"),
    "auto | deno | epoll | io_uring (epoll: Linux fast path",
    "over libc epoll through FFI, https: via OpenSSL; auto:",
    "epoll where it can run, except verified https:",
    "(Deno.startTls), else deno with the reason in results,",
    "and io_uring for a closed ws:// message run; io_uring:",
    "plain-TCP closed models, else epoll)",
  ),
  h2WindowBytes: option(
    { file: "h2WindowBytes", flag: "--h2-window BYTES", example: "16777216" },
    z.number().int().min(65_535, "h2 window must be >= 65535 bytes")
      .max(0x7fff_ffff, "h2 window must be < 2 GiB").default(16 * 1024 * 1024),
    "HTTP/2: receive windows advertised",
  ),
  maxHeaderBytes: option(
    { flag: "--max-header-bytes N", example: "65536" },
    z.number().int().min(1024, "max header bytes must be >= 1024").default(DEFAULT_MAX_HEADER_BYTES),
    "cap of a response head; a bigger one is a parse error and",
    "closes its connection",
  ),
  maxMemoryMb: option(
    { file: "maxMemoryMb", flag: "--max-memory-mb N", example: "4096" },
    z.number().int().min(
      MIN_MEMORY_MB,
      `max memory must be >= ${MIN_MEMORY_MB} MB (loadlab itself holds 150-200 MB as a load starts), or left ` +
        "out to have it chosen from the machine's free memory",
    ).max(MAX_MEMORY_MB, `max memory must be <= ${MAX_MEMORY_MB} MB (1 TiB)`).optional(),
    "loadlab's own memory (RSS) past which its workers are ended",
    "and the run flagged incomplete, naming memory (default: half",
    "the memory free at the start, 1024-2048 MB, more per worker)",
  ),
  lateBoundMs: option({ kind: "ms", file: "lateBound" }, cappedMs("late bound").positive().default(1_000)),
  /** `drop`: an open model's send finding every connection busy, at their bound, is dropped (k6's rate). */
  whenBusy: option({ kind: "word", file: "whenBusy" }, z.enum(["wait", "drop"]).default("wait")),
  gracefulStopMs: option(
    { kind: "ms", file: "gracefulStop", flag: "--graceful-stop D", example: "0s" },
    cappedMs("graceful stop").min(0).default(2_000),
    "how long calls in flight at -d's end may take; past",
    "it they count as unfinished (k6's gracefulStop)",
  ),
  /** Experiment files set these two for the whole file (`interval:`, `warmup:`), not per load. */
  intervalMs: option(
    { kind: "ms", flag: "--interval D", example: "250ms" },
    z.number().min(10, "interval must be >= 10ms").default(250),
    "statistics interval for the time series",
  ),
  warmupMs: option(
    { kind: "ms", flag: "--warmup D", example: "5s" },
    cappedMs("warm-up").min(0, "warm-up must be >= 0").default(0),
    "run this long first and leave it out of the statistics",
    "(the target's warm-up: its requests reach the target)",
  ),
  connections: option(
    {
      file: "connections",
      sweep: true,
      model: true,
      flag: "-c, --concurrency N",
      aliases: ["u", "vus", "users"],
      example: "50",
    },
    z.number().int().positive("connections must be >= 1").default(10),
    "connections to keep busy (closed, throughput, count;",
    "k6's --vus, Locust's -u)",
  ),
  durationMs: option(
    { kind: "ms", file: "duration", model: true, flag: "-d, --duration D", example: "10s" },
    cappedMs("duration").positive("duration must be > 0").default(DEFAULT_DURATION_MS),
    "measured duration: 500ms, 10s, 1.5s, 1m, 1m30s, 2h; a bare",
    "number is seconds; at most 7 days",
    "(with -n an optional upper bound; -n alone runs to the count)",
  ),
  requests: option(
    { model: true, flag: "-n, --requests N", aliases: ["total"], example: "1000" },
    z.number().int().positive("requests must be >= 1"),
    "send exactly N requests (count model; ghz's --total too)",
  ),
  maxDurationMs: option(
    { kind: "ms", file: "maxDuration", model: true, flag: "--max-duration D", example: "10m" },
    cappedMs("max duration").positive("max duration must be > 0").default(10 * 60_000),
    "a count without -d stops here, flagged incomplete (k6's",
    "maxDuration; past the last send with -R)",
  ),
  ratePerSec: option(
    { kind: "rate", file: "rate", model: true, flag: "-R, --rate N", example: "1000" },
    z.number().positive("rate must be > 0").max(MAX_RATE_PER_SEC, `rate must be ${RATE_CAP}`),
    "requests per second, at most 10000000 (1e7) for the whole load",
  ),
  stages: option(
    { model: true, flag: "--stages LIST", aliases: ["stage"], example: "30s:50,1m:200,30s:0" },
    stagesSchema,
    "ramping connections, k6's stages: DURATION:TARGET, comma-separated;",
    "from 0, linear to each target, e.g. --stages 30s:50,1m:200,30s:0",
    "(replaces -c and -d; at most 1000 stages, 1000000 connections)",
  ),
  /** Locust's spawn rate: the command line's `stages` up to `-c` (cli/attack/schedules.ts reads it). */
  rampUp: option(
    { model: true, flag: "-r, --ramp-up R/s", aliases: ["spawn-rate"], example: "10/s" },
    z.string().optional(),
    "Locust's spawn rate: add R connections (users) a second up to -c,",
    "then hold them for the rest of -d, e.g. -c 100 -r 10/s -d 1m",
  ),
  maxConnections: option(
    { file: "maxConnections", sweep: true, model: true, flag: "--max-connections N", example: "500" },
    z.number().int().positive("maxConnections must be >= 1").default(DEFAULT_MAX_CONNECTIONS),
    "cap on connections the open models open (fewer when",
    "the open-file limit is lower)",
  ),
  preConnect: option(
    { file: "preConnect", model: true, flag: "--pre-connect N", example: "50" },
    z.number().int().min(0, "preConnect must be >= 0").optional(),
    "open models: connections opened before the first send   [Little's",
    "law: first rate x connect round trip x 2, at least 4 per worker]",
    "(0: none; no request is sent to size it, only connects)",
  ),
  sourceAddresses: option(
    { kind: "word", flag: "--source-addresses L", example: "127.0.0.1-127.0.0.4" },
    z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
      const out = expandSourceAddresses(v);
      if (!("problem" in out)) return out;
      customIssue(ctx, [], `source addresses: ${out.problem}`);
      return z.NEVER;
    }).optional(),
    "bind connections to these local addresses in turn, past the",
    "~14k connections one address opens quickly per destination: a list",
    "or IPv4 ranges, e.g. 127.0.0.1-127.0.0.4 (epoll transport)",
  ),
  logFile: option(
    { kind: "path", flag: "--log FILE", example: "requests.csv" },
    z.string().optional(),
    "stream every request to a CSV: code;startUs;endUs;connection",
  ),
};

/** A gRPC message's size cap, bytes (grpc-go's 4 MiB default). */
const messageCap = (what: string) =>
  z.number().int().min(1, `max ${what} bytes must be >= 1`).max(0x7fff_ffff).default(4 * 1024 * 1024);

/** gRPC's message caps: the `grpc` config's and an experiment's `grpc:` fields, ghz's flags. */
export const GRPC_OPTIONS = {
  maxReceiveBytes: option(
    { flag: "--max-receive N", example: "4194304" },
    messageCap("receive"),
    "cap of a received message; a bigger one is grpc-too-big",
  ),
  maxSendBytes: option(
    { flag: "--max-send N", example: "4194304" },
    messageCap("send"),
    "cap of a sent message; a bigger one is refused before the load",
    "(a filled template's: counted grpc RESOURCE_EXHAUSTED, not sent)",
  ),
};

/**
 * Each load model's own fields beside the common ones, read by the config's schema and, as types only, by
 * the model's rules and run (runner/load/models/): names, defaults and bounds stated here once.
 */
export const MODEL_FIELDS = {
  connections: { connections: OPTIONS.connections.schema, durationMs: OPTIONS.durationMs.schema },
  /** Arrivals follow the phases; the measured duration is their sum. */
  rate: {
    phases: z.array(phaseSchema).min(1, "rate model needs at least one phase"),
    maxConnections: OPTIONS.maxConnections.schema,
    preConnect: OPTIONS.preConnect.schema,
  },
  /** wrk2: a constant total rate over fixed connections, latency from the intended send time. */
  throughput: {
    ratePerSec: OPTIONS.ratePerSec.schema,
    connections: OPTIONS.connections.schema,
    durationMs: OPTIONS.durationMs.schema,
  },
  count: {
    /** Requests to send; with `flows`, sessions to run. */
    requests: OPTIONS.requests.schema,
    connections: OPTIONS.connections.schema,
    ratePerSec: OPTIONS.ratePerSec.schema.optional(),
    maxConnections: OPTIONS.maxConnections.schema,
    /** Open-paced count only (with `ratePerSec`). */
    preConnect: OPTIONS.preConnect.schema,
    /** An optional upper bound: the run stops at the count or at this time, whichever comes first. */
    durationMs: OPTIONS.durationMs.schema.unwrap().optional(),
    maxDurationMs: OPTIONS.maxDurationMs.schema,
    /** Closed: each connection runs an equal share of the count (k6's per-vu-iterations), none shared. */
    eachConnection: z.literal(true).optional(),
  },
  "ramping-connections": {
    stages: OPTIONS.stages.schema,
    gracefulRampDownMs: cappedMs("graceful ramp-down").min(0).optional(),
  },
} satisfies { [M in LoadModel]: z.ZodRawShape };

/** The models that have any of the config fields `fields` (e.g. `connections`), in the table's order. */
export function modelsWithField(...fields: string[]): LoadModel[] {
  return (Object.keys(MODEL_FIELDS) as LoadModel[]).filter((m) => fields.some((f) => f in MODEL_FIELDS[m]));
}

export type OptionKey = keyof typeof OPTIONS;
/** The options of every config, not of some models. */
export type CommonOptionKey = {
  [K in OptionKey]: (typeof OPTIONS)[K] extends { model: true } ? never : K;
}[OptionKey];
export const OPTION_ROWS = Object.entries(OPTIONS) as Array<[OptionKey, Option]>;

type OptionSchemas = { [K in CommonOptionKey]: (typeof OPTIONS)[K]["schema"] };

/**
 * The part of a URL `text` (scheme://authority...) that no connection can name: an IPv6 zone, no host, a
 * port outside 1 to 65535, a character no host may hold; undefined when none (the scheme is the caller's).
 */
export function urlHostProblem(text: string): string | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(text)?.[1].replace(/^.*@/, "");
  if (authority === undefined) return undefined;
  const [, host, port] = /^(\[[^\]]*\]?|[^:]*)(.*)$/.exec(authority)!;
  if (host.startsWith("[") && host.includes("%")) {
    return `the IPv6 zone in ${host} cannot be written in a URL (a WHATWG URL has none): use a global or ` +
      "loopback address, e.g. http://[::1]:8080/";
  }
  if (host === "") return "no host after //: write one, e.g. http://127.0.0.1:8080/";
  if (port && (!/^:\d*$/.test(port) || Number(port.slice(1)) > 65535)) {
    return `port "${port.slice(1)}" is not a number from 1 to 65535`;
  }
  if (!URL.canParse(text)) {
    return `the host "${host}" holds a character no host name may: write the server's name`;
  }
}

/** A URL's port 0 is no server's: the refinement every URL field takes. */
export const NOT_PORT_ZERO = [
  (u: string) => !URL.canParse(u) || new URL(u).port !== "0",
  "port 0 is no server's (nothing can connect to it): give the port the target listens on",
] as const;

export const commonFields = {
  url: z.string().url({
    error: (i) =>
      urlHostProblem(String(i.input)) ?? "url must be an absolute http://, https://, ws:// or wss:// URL",
  }).refine(
    (u) => /^(https?|wss?):\/\//.test(u),
    "url must start with http://, https://, ws:// or wss://",
  ).refine(...NOT_PORT_ZERO),
  ws: wsConfigSchema.optional(),
  requestMix: z.array(requestSpecSchema).min(1).prefault([{}]),
  /** Sessions of a flow picked by weight, one per arrival or connection turn (`requests` counts sessions). */
  flows: z.array(flowSpecSchema).min(1).optional(),
  /** A session script whose default export runs once per arrival or connection turn. */
  script: scriptSpecSchema.optional(),
  data: dataSpecSchema.optional(),
  /** A cookie jar per session (flows only; on unless false). */
  cookies: z.boolean().optional(),
  ...Object.fromEntries(
    OPTION_ROWS.filter(([, o]) => !o.model).map(([key, o]) => [key, o.schema]),
  ) as OptionSchemas,
  /** gRPC: the mix's requests are calls encoded before the run, judged by gRPC's status; over h2 or h2c. */
  grpc: z.strictObject({
    maxReceiveBytes: GRPC_OPTIONS.maxReceiveBytes.schema,
    /** The schema as a FileDescriptorSet's bytes. */
    schema: z.instanceof(Uint8Array).optional(),
    /** Ask the server's reflection service for the schema at start; `call` becomes the request mix. */
    reflect: z.literal(true).optional(),
    call: grpcStepSchema.optional(),
    /** A pause between a client stream's messages (ghz's `--stream-interval`), ms. */
    streamIntervalMs: cappedMs("stream interval").min(0).optional(),
    /** A server stream cancelled at its Nth message, or its first past ms (ghz's --stream-call-*). */
    streamEndMessages: z.number().int().min(1).optional(),
    streamEndMs: cappedMs("stream end").min(1).optional(),
  }).optional(),
  /** Keep latency from the actual send beside the intended send's, the log's start the actual (ghz's -O). */
  keepSentLatency: z.boolean().optional(),
  /** HTTP/2 over fixed connections: streams in flight over all (ghz's `-c`); absent: `streams` each. */
  concurrency: z.number().int().min(1, "concurrency must be >= 1").optional(),
  /** The calls in flight from each `atMs` of the measured run on (ghz's schedule), `concurrency` most. */
  concurrencySteps: z.array(z.strictObject({ atMs: z.number().min(0), concurrency: z.number().int().min(0) }))
    .optional(),
  /** Beside `concurrencySteps`: each call waits for its tick, however late, `1 / rate` apart in each phase
   * `[durationMs, ratePerSec]`, the last one's rate holding on (ghz's -r or load schedule beside them). */
  tickPhases: z.array(z.tuple([z.number().min(0), z.number().min(0)])).min(1).optional(),
  tls: tlsOptionsSchema.optional(),
  /** `endpoints`: each named endpoint's interval histograms are kept too. */
  intervalHistograms: z.union([z.boolean(), z.literal("endpoints")]).default(true),
  /** Brings the generator's hot path to optimized code against an in-process sink before t0. */
  generatorWarmup: z.boolean().default(true),
  /** A recorded steering schedule replayed (`loadlab run --replay`). */
  steering: steeringSchema.optional(),
  /** This generator's share of a load split over machines (k6's execution segments). */
  segment: z.strictObject({
    index: z.number().int().min(0, "segment index must be >= 0"),
    count: z.number().int().min(1, "segment count must be >= 1").max(10_000),
  }).refine((s) => s.index < s.count, { message: "segment index must be below the count", path: ["index"] })
    .optional(),
  /** Epoch ms at which the schedule (warm-up included) starts, so segments on several machines line up. */
  startAtEpochMs: z.number().int().positive().optional(),
};

export type CommonFields = z.output<z.ZodObject<typeof commonFields>>;
