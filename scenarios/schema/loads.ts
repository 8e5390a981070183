/**
 * @module
 * The `loads:` section of experiment files: each load one engine model with the fields it takes.
 */
import { z } from "zod";
import { defined } from "../../validation/defined.ts";
import { tlsOptionsSchema } from "../../runner/http/tls/options.ts";
import { wsConfigSchema } from "../../runner/http/ws/config.ts";
import { durationSchema, flowListSchema, requestListSchema } from "./requests.ts";
import {
  type CommonOptionKey,
  OPTION_ROWS,
  type OPTIONS,
  phaseSchema as enginePhase,
} from "../../runner/config_fields.ts";
import type { Option } from "../../runner/option.ts";
import { customIssue } from "../../validation/mod.ts";

const positiveInt = (what: string) => z.number().int().min(1, `${what} must be >= 1`);
/** A phase's rate and ramp (>= 0) as the engine bounds them. */
const { ratePerSec: rateSchema, rampToPerSec } = enginePhase.shape;

type Options = typeof OPTIONS;
/** The options a load sets in a file (runner/config_fields.ts), by config field. */
type FileOption = { [K in keyof Options]: Options[K] extends { file: string } ? K : never }[keyof Options];
type CommonFileOption = Extract<FileOption, CommonOptionKey>;
type Value<K extends keyof Options> = NonNullable<z.input<Options[K]["schema"]>>;

export const FILE_OPTIONS = OPTION_ROWS.filter((row): row is [FileOption, Option & { file: string }] =>
  row[1].file !== undefined
);

/** An option's file key -> its config field. */
export const CONFIG_KEYS: Record<string, string> = Object.fromEntries(
  FILE_OPTIONS.map(([key, o]) => [o.file, key]),
);

/** An option as a file writes it: a duration with its unit, a rate or word as its row, else a count >= 1. */
function fileSchemaOf(o: Option & { file: string }): z.ZodType {
  if (o.kind === "ms") return durationSchema;
  if (o.kind !== "word" && o.kind !== "rate") return positiveInt(o.file);
  return o.schema instanceof z.ZodDefault ? o.schema.unwrap() as z.ZodType : o.schema;
}

/** The load fields a sweep may set to words, each its schema's enum. */
export const WORD_FIELDS = Object.fromEntries(
  FILE_OPTIONS.filter(([, o]) => o.kind === "word" && o.sweep).map(([, o]) => [o.file, fileSchemaOf(o)]),
) as Record<string, z.ZodEnum<Record<string, string>>>;

type FileFields<O extends FileOption> = {
  [K in O as Options[K]["file"]]: z.ZodOptional<z.ZodType<Value<K>>>;
};
/** The options every load has (`common`), or the models' own (`model`), as a file writes them. */
function fileFields(model: boolean) {
  const rows = FILE_OPTIONS.filter(([, o]) => !o.model === !model);
  return Object.fromEntries(rows.map(([, o]) => [o.file, fileSchemaOf(o).optional()]));
}
const optionFields = fileFields(false) as FileFields<CommonFileOption>;
const modelFields = fileFields(true) as FileFields<Exclude<FileOption, CommonOptionKey>>;

const commonFields = {
  /** Sessions of several requests, used instead of the request mix. */
  flows: flowListSchema.optional(),
  ...optionFields,
  /** Local addresses bound in turn: a list, or addresses and IPv4 ranges (`127.0.0.1-127.0.0.4`). */
  sourceAddresses: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  /** `grpc`: the built-in target's gRPC listener (answers `POST /echo` too); `http` (default): HTTP. */
  listener: z.enum(["http", "grpc"]).optional(),
  /** https: options (runner/http/tls/options.ts): insecure, caFile, certFile/keyFile, sni, connectTo. */
  tls: tlsOptionsSchema.optional(),
  /** The data source (top-level `data:`) whose rows fill `{{ column }}`: one row per request or session. */
  data: z.string().min(1).optional(),
  /** A cookie jar per session (flows; on unless false). */
  cookies: z.boolean().optional(),
  /** WebSocket load (docs/WEBSOCKET.md): the path, the messages, the match rule, storm or hold. */
  ws: wsConfigSchema.optional(),
};

/** File keys of the models' own fields -> config fields (the options' come from `CONFIG_KEYS`). */
const MODEL_KEYS = {
  rampTo: "rampToPerSec",
  requests: "mix",
  gracefulRampDown: "gracefulRampDownMs",
} as const;
type OptionKeys = { [K in FileOption as Options[K]["file"]]: K };
type Keys = OptionKeys & typeof MODEL_KEYS;
type Renamed<T> = { [K in keyof T as K extends keyof Keys ? Keys[K] : K]: T[K] };

/** A load at its config keys, without undefined values. */
function renamed<T extends object>(l: T): Renamed<T> {
  const keys: Record<string, string> = { ...CONFIG_KEYS, ...MODEL_KEYS };
  return defined(Object.fromEntries(Object.entries(l).map(([k, v]) => [keys[k] ?? k, v]))) as Renamed<T>;
}

/** Fields of the models that send over a fixed set of connections (connections, throughput). */
const poolFields = {
  connections: modelFields.connections,
  duration: modelFields.duration,
  requests: requestListSchema.optional(),
};

const phaseSchema = z.strictObject({
  name: z.string().min(1).optional(),
  duration: durationSchema,
  rate: rateSchema,
  rampTo: rampToPerSec,
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
  /** How long a retired connection's session may run on before it is cut (k6's `gracefulRampDown`). */
  gracefulRampDown: durationSchema.optional(),
  ...commonFields,
}).superRefine((l, ctx) => {
  if (l.stages === undefined && l.gracefulRampDown !== undefined) {
    customIssue(ctx, ["gracefulRampDown"], "a ramp-down needs stages: give stages, or drop gracefulRampDown");
  }
  if (l.stages === undefined) return;
  for (const key of ["connections", "duration"] as const) {
    if (l[key] === undefined) continue;
    customIssue(
      ctx,
      [key],
      `give stages or ${key}, not both (the stages' targets and durations set the connections)`,
    );
  }
}).transform(({ stages, ...l }) =>
  stages === undefined ? renamed(l) : renamed({
    ...l,
    model: "ramping-connections" as const,
    stages,
    connections: undefined,
    duration: undefined,
  })
);

const rateLoad = z.strictObject({
  model: z.literal("rate"),
  phases: z.array(phaseSchema).min(1, "needs at least one phase").optional(),
  /** Shorthand for one phase: `rate` (+ `rampTo`) for `duration`. */
  rate: rateSchema.optional(),
  rampTo: rampToPerSec,
  duration: modelFields.duration,
  maxConnections: modelFields.maxConnections,
  preConnect: modelFields.preConnect,
  requests: requestListSchema.optional(),
  ...commonFields,
}).superRefine((l, ctx) => {
  if (l.phases !== undefined) {
    for (const key of ["rate", "rampTo", "duration"] as const) {
      if (l[key] === undefined) continue;
      customIssue(ctx, [key], `give phases or ${key}, not both`);
    }
    return;
  }
  if (l.rate === undefined) {
    customIssue(ctx, ["phases"], "missing; a rate load needs phases or rate");
  }
  if (l.duration === undefined) {
    customIssue(ctx, ["duration"], "missing; rate needs a duration, e.g. 30s");
  }
}).transform(({ phases, rate, rampTo, duration, ...l }) =>
  renamed({
    ...l,
    phases: phases ?? [defined({ durationMs: duration ?? 0, ratePerSec: rate ?? 0, rampToPerSec: rampTo })],
  })
);

const throughputLoad = z.strictObject({
  model: z.literal("throughput"),
  rate: modelFields.rate.unwrap(),
  ...poolFields,
  ...commonFields,
}).transform((l) => renamed(l));

const countLoad = z.strictObject({
  model: z.literal("count"),
  requests: positiveInt("requests"),
  /** rate (open pacing, not closed over connections), maxConnections, duration (a bound), maxDuration. */
  ...modelFields,
  /** This load's own request mix (`requests` is the count here). */
  mix: requestListSchema.optional(),
  /** Closed: each connection runs an equal share of `requests` (k6's per-vu-iterations), none shared. */
  eachConnection: z.literal(true).optional(),
  ...commonFields,
}).superRefine((l, ctx) => {
  // Closed pacing keeps its `connections`; a cap of connections opened on demand would do nothing.
  if (l.maxConnections !== undefined && l.rate === undefined) {
    customIssue(
      ctx,
      ["maxConnections"],
      "caps open pacing only; add rate: (requests per second), or use connections: for closed pacing",
    );
  }
}).transform(({ requests, mix, ...l }) => ({ ...renamed(l), requests, ...defined({ mix }) }));

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
