/**
 * @module
 * The `loads:` section of experiment files: each load one engine model with the fields it takes.
 */
import { z } from "zod";
import { tlsOptionsSchema } from "../../runner/http/tls/options.ts";
import { wsConfigSchema } from "../../runner/http/ws/config.ts";
import { durationSchema, flowListSchema, requestListSchema } from "./requests.ts";
import { MAX_RATE_PER_SEC } from "../../runner/load/models/fields.ts";

const positiveInt = (what: string) => z.number().int().min(1, `${what} must be >= 1`);
const RATE_CAP = `must be at most ${
  MAX_RATE_PER_SEC.toLocaleString("en-US")
} (requests per second, one load's cap)`;
const rateSchema = z.number().min(0, "rate must be >= 0 (requests per second)").max(
  MAX_RATE_PER_SEC,
  `rate ${RATE_CAP}`,
);
const positiveRate = z.number().positive("rate must be > 0 (requests per second)").max(
  MAX_RATE_PER_SEC,
  `rate ${RATE_CAP}`,
);

/** The load fields whose values are words: one schema each, for the load and a sweep over it. */
export const WORD_FIELDS = {
  connection: z.enum(["keep-alive", "per-arrival"]),
  transport: z.enum(["auto", "epoll", "deno", "io_uring"]),
  protocol: z.enum(["http1", "h2", "h2c", "h3", "auto"]),
};

const commonFields = {
  /** Sessions of several requests, used instead of the request mix. */
  flows: flowListSchema.optional(),
  /** `per-arrival`: a new connection for each arrival or session (Artillery's virtual users). */
  connection: WORD_FIELDS.connection.optional(),
  timeout: durationSchema.optional(),
  pipelining: positiveInt("pipelining").optional(),
  workers: positiveInt("workers").optional(),
  /** loadlab's own memory limit for the load's runs, MB (runner/config_fields.ts checks it). */
  maxMemoryMb: z.number().optional(),
  lateBound: durationSchema.optional(),
  gracefulStop: durationSchema.optional(),
  /** Socket transport (runner/config.ts): `auto` (deno for now), `deno`, or the experimental `epoll`. */
  transport: WORD_FIELDS.transport.optional(),
  /** Local addresses bound in turn: a list, or addresses and IPv4 ranges (`127.0.0.1-127.0.0.4`). */
  sourceAddresses: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  /** HTTP version: `http1`, `h2` (h2c on http:), `h2c`, `auto` (ALPN's choice on https:). */
  protocol: WORD_FIELDS.protocol.optional(),
  /**
   * `grpc`: send this load to the built-in target's gRPC listener (which answers `POST /echo` too); `http`
   * (the default): its HTTP port.
   */
  listener: z.enum(["http", "grpc"]).optional(),
  /** HTTP/2: concurrent streams per connection (h2load's -m). */
  streams: positiveInt("streams").optional(),
  /** HTTP/2: receive windows advertised, bytes. */
  h2WindowBytes: positiveInt("h2WindowBytes").optional(),
  /**
   * TLS options for https: targets (runner/http/tls/options.ts): insecure, caFile, certFile/keyFile, sni,
   * connectTo.
   */
  tls: tlsOptionsSchema.optional(),
  /** The data source (top-level `data:`) whose rows fill `{{ column }}`: one row per request or session. */
  data: z.string().min(1).optional(),
  /** A cookie jar per session (flows; on unless false). */
  cookies: z.boolean().optional(),
  /**
   * WebSocket load (docs/WEBSOCKET.md): the path on the target, the messages, the match rule, storm or hold.
   */
  ws: wsConfigSchema.optional(),
};

type CommonIn = z.output<z.ZodObject<typeof commonFields>>;

/** Drops keys whose value is undefined, so plans and their JSON show only what the file set. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function commonOut(l: CommonIn) {
  return {
    flows: l.flows,
    connection: l.connection,
    timeoutMs: l.timeout,
    pipelining: l.pipelining,
    workers: l.workers,
    maxMemoryMb: l.maxMemoryMb,
    lateBoundMs: l.lateBound,
    gracefulStopMs: l.gracefulStop,
    transport: l.transport,
    sourceAddresses: l.sourceAddresses,
    protocol: l.protocol,
    listener: l.listener,
    streams: l.streams,
    h2WindowBytes: l.h2WindowBytes,
    tls: l.tls,
    data: l.data,
    cookies: l.cookies,
    ws: l.ws,
  };
}

/** Fields of the models that send over a fixed set of connections (connections, throughput). */
const poolFields = {
  connections: positiveInt("connections").optional(),
  duration: durationSchema.optional(),
  requests: requestListSchema.optional(),
};

function poolOut(l: z.output<z.ZodObject<typeof poolFields>>) {
  return { connections: l.connections, durationMs: l.duration, mix: l.requests };
}

const phaseSchema = z.strictObject({
  name: z.string().min(1).optional(),
  duration: durationSchema,
  rate: rateSchema,
  rampTo: rateSchema.optional(),
}).transform((p) =>
  defined({ name: p.name, durationMs: p.duration, ratePerSec: p.rate, rampToPerSec: p.rampTo })
);

/** One stage of ramping connections: the whole load's connections reach `target` over `duration`. */
const stageSchema = z.strictObject({ duration: durationSchema, target: z.number() })
  .transform((s) => ({ durationMs: s.duration, target: s.target }));

/** A closed load: fixed `connections` for `duration`, or k6's `stages` that ramp them. */
const connectionsLoad = z.strictObject({
  model: z.literal("connections"),
  ...poolFields,
  stages: z.array(stageSchema).optional(),
  ...commonFields,
}).superRefine((l, ctx) => {
  if (l.stages === undefined) return;
  for (const key of ["connections", "duration"] as const) {
    if (l[key] === undefined) continue;
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: `give stages or ${key}, not both (the stages' targets and durations set the connections)`,
    });
  }
}).transform((l) =>
  l.stages === undefined
    ? defined({ model: l.model, ...poolOut(l), ...commonOut(l) })
    : defined({ model: "ramping-connections" as const, stages: l.stages, mix: l.requests, ...commonOut(l) })
);

const rateLoad = z.strictObject({
  model: z.literal("rate"),
  phases: z.array(phaseSchema).min(1, "needs at least one phase").optional(),
  /** Shorthand for one phase: `rate` (+ `rampTo`) for `duration`. */
  rate: rateSchema.optional(),
  rampTo: rateSchema.optional(),
  duration: durationSchema.optional(),
  maxConnections: positiveInt("maxConnections").optional(),
  requests: requestListSchema.optional(),
  ...commonFields,
}).superRefine((l, ctx) => {
  if (l.phases !== undefined) {
    for (const key of ["rate", "rampTo", "duration"] as const) {
      if (l[key] === undefined) continue;
      ctx.addIssue({ code: "custom", path: [key], message: `give phases or ${key}, not both` });
    }
    return;
  }
  if (l.rate === undefined) {
    ctx.addIssue({ code: "custom", path: ["phases"], message: "missing; a rate load needs phases or rate" });
  }
  if (l.duration === undefined) {
    ctx.addIssue({ code: "custom", path: ["duration"], message: "missing; rate needs a duration, e.g. 30s" });
  }
}).transform((l) =>
  defined({
    model: l.model,
    phases: l.phases ??
      [defined({ durationMs: l.duration ?? 0, ratePerSec: l.rate ?? 0, rampToPerSec: l.rampTo })],
    maxConnections: l.maxConnections,
    mix: l.requests,
    ...commonOut(l),
  })
);

const throughputLoad = z.strictObject({
  model: z.literal("throughput"),
  rate: positiveRate,
  ...poolFields,
  ...commonFields,
}).transform((l) => defined({ model: l.model, ratePerSec: l.rate, ...poolOut(l), ...commonOut(l) }));

const countLoad = z.strictObject({
  model: z.literal("count"),
  /** The number of requests to send. */
  requests: positiveInt("requests"),
  connections: positiveInt("connections").optional(),
  /** Open pacing at this rate instead of closed over `connections`. */
  rate: positiveRate.optional(),
  maxConnections: positiveInt("maxConnections").optional(),
  /** Upper bound: the run stops at the count or at this time. */
  duration: durationSchema.optional(),
  /** The bound without a duration (k6's `maxDuration`, 10m unless set): the run stops there, flagged. */
  maxDuration: durationSchema.optional(),
  /** This load's own request mix (`requests` is the count here). */
  mix: requestListSchema.optional(),
  ...commonFields,
}).superRefine((l, ctx) => {
  // Closed pacing keeps its `connections`; a cap of connections opened on demand would do nothing.
  if (l.maxConnections !== undefined && l.rate === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["maxConnections"],
      message:
        "caps open pacing only; add rate: (requests per second), or use connections: for closed pacing",
    });
  }
}).transform((l) =>
  defined({
    model: l.model,
    requests: l.requests,
    connections: l.connections,
    ratePerSec: l.rate,
    maxConnections: l.maxConnections,
    durationMs: l.duration,
    maxDurationMs: l.maxDuration,
    mix: l.mix,
    ...commonOut(l),
  })
);

/** One load, chosen by `model`. */
export const loadSchema = z.discriminatedUnion("model", [
  connectionsLoad,
  rateLoad,
  throughputLoad,
  countLoad,
]).meta({
  id: "load",
  description: "One load: an engine model (connections, rate, throughput, count) and its fields",
});
export type LoadSpec = z.output<typeof loadSchema>;
