/**
 * @module
 * The `loads:` section of experiment files: each load one engine model with the fields it takes, derived
 * from the model's row of `MODEL_FIELDS` (runner/config_fields.ts) at the file's keys.
 */
import { z } from "zod";
import { defined } from "../../validation/defined.ts";
import { durationSchema, flowListSchema, requestListSchema } from "./requests.ts";
import {
  commonFields as configFields,
  type CommonOptionKey,
  MODEL_FIELDS,
  OPTION_ROWS,
  OPTIONS,
  phaseSchema,
} from "../../runner/config_fields.ts";
import type { Option } from "../../runner/option.ts";
import { customIssue } from "../../validation/mod.ts";
import type { LoadModel } from "../../results/mod.ts";

type Options = typeof OPTIONS;
/** The options a load sets in a file (runner/config_fields.ts), by config field. */
type FileOption = { [K in keyof Options]: Options[K] extends { file: string } ? K : never }[keyof Options];
type CommonFileOption = Extract<FileOption, CommonOptionKey>;

export const FILE_OPTIONS = OPTION_ROWS.filter((row): row is [FileOption, Option & { file: string }] =>
  row[1].file !== undefined
);

/** A config field's file key: its option's, else the field without its unit (`gracefulRampDownMs`). */
function fileKeyOf(field: string): string {
  return (OPTIONS as Record<string, Option>)[field]?.file ?? field.replace(/(Ms|PerSec)$/, "");
}

/** An option as a file writes it: a duration with its unit, a rate or word as its row, else a count >= 1. */
function fileSchemaOf(o: Option, key = o.file): z.ZodType {
  if (o.kind === "ms") return durationSchema;
  if (o.kind !== "word" && o.kind !== "rate") return z.number().int().min(1, `${key} must be >= 1`);
  return o.schema instanceof z.ZodDefault ? o.schema.unwrap() as z.ZodType : o.schema;
}

/** The load fields a sweep may set to words, each its schema's enum. */
export const WORD_FIELDS = Object.fromEntries(
  FILE_OPTIONS.filter(([, o]) => o.kind === "word" && o.sweep).map(([, o]) => [o.file, fileSchemaOf(o)]),
) as Record<string, z.ZodEnum<Record<string, string>>>;

/** Config fields as a file writes them: durations with a unit, `options` in their file form. */
function fileShapeOf(shape: Record<string, z.ZodType>, options: boolean): Record<string, z.ZodType> {
  return Object.fromEntries(
    Object.entries(shape).map(([field, schema]) => {
      const key = fileKeyOf(field), o = (OPTIONS as Record<string, Option>)[field];
      const item = schema instanceof z.ZodArray ? schema.element : undefined;
      const form = field.endsWith("Ms")
        ? durationSchema
        : item instanceof z.ZodObject
        ? z.array(z.strictObject(fileShapeOf(item.shape, false)).transform((o) => renamed(o)))
        : options && o
        ? fileSchemaOf(o, key)
        : schema;
      return [key, schema.safeParse(undefined).success ? form.optional() : form];
    }),
  );
}

/** File keys -> config fields: the options', the models' own fields', their phases'. */
export const CONFIG_KEYS: Record<string, string> = Object.fromEntries(
  [
    ...FILE_OPTIONS.map(([key]) => key),
    ...Object.values(MODEL_FIELDS).flatMap(Object.keys),
    ...Object.keys(phaseSchema.shape),
  ].map((f) => [fileKeyOf(f), f]),
);

/** A file's fields at their config keys (a load's own requests, at `mixKey`, at `mix`), none undefined. */
function renamed(l: Record<string, unknown>, mixKey?: string): Record<string, unknown> {
  return defined(Object.fromEntries(
    Object.entries(l).map(([k, v]) => [k === mixKey ? "mix" : CONFIG_KEYS[k] ?? k, v]),
  ));
}

/** The file key of a load's own requests: `requests`, or `mix` where the model's `requests` is a count. */
export const mixKeyOf = (model: LoadModel) => "requests" in MODEL_FIELDS[model] ? "mix" : "requests";

/** A model's own fields (its `MODEL_FIELDS` row) as a file writes them. */
const modelFile = (model: LoadModel) => fileShapeOf(MODEL_FIELDS[model] as Record<string, z.ZodType>, true);

const commonFields = {
  /** Sessions of several requests, used instead of the request mix. */
  flows: flowListSchema.optional(),
  ...Object.fromEntries(
    FILE_OPTIONS.filter(([, o]) => !o.model).map(([, o]) => [o.file, fileSchemaOf(o).optional()]),
  ),
  /** Local addresses bound in turn: a list, or addresses and IPv4 ranges (`127.0.0.1-127.0.0.4`). */
  sourceAddresses: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  /** `grpc`: the built-in target's gRPC listener (answers `POST /echo` too); `http` (default): HTTP. */
  listener: z.enum(["http", "grpc"]).optional(),
  /** The data source (top-level `data:`) whose rows fill `{{ column }}`: one row per request or session. */
  data: z.string().min(1).optional(),
  /** As the config's: https: options, a cookie jar per session (flows), WebSocket load (docs/WEBSOCKET.md) */
  tls: configFields.tls,
  cookies: configFields.cookies,
  ws: configFields.ws,
};

/** A load of `model` in a file: its own fields, `extra`, its requests at its `mixKey`, the common ones. */
function loadOf(model: LoadModel, extra: Record<string, z.ZodType> = {}) {
  return z.strictObject({
    model: z.literal(model),
    ...modelFile(model),
    ...extra,
    [mixKeyOf(model)]: requestListSchema.optional(),
    ...commonFields,
  }) as unknown as z.ZodObject<Record<string, z.ZodType>>;
}
const read = (model: LoadModel) => (l: Record<string, unknown>) => renamed(l, mixKeyOf(model));

/** A closed load: fixed `connections` for `duration`, or k6's `stages` that ramp them. */
const connectionsLoad = loadOf("connections", {
  stages: modelFile("ramping-connections").stages.optional(),
  /** How long a retired connection's session may run on before it is cut (k6's `gracefulRampDown`). */
  gracefulRampDown: modelFile("ramping-connections").gracefulRampDown,
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
}).transform((l) => ({ ...read("connections")(l), ...(l.stages ? { model: "ramping-connections" } : {}) }));

/** An open load: its `phases`, or one phase's `rate` (+ `rampTo`) for `duration` as shorthand. */
const { rate, rampTo, duration } = fileShapeOf(phaseSchema.shape, false);
const rateLoad = loadOf("rate", {
  phases: modelFile("rate").phases.optional(),
  rate: rate.optional(),
  rampTo,
  duration: duration.optional(),
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
}).transform(({ phases, rate, rampTo, duration, ...l }) => ({
  ...read("rate")(l),
  phases: phases ?? [defined({ durationMs: duration ?? 0, ratePerSec: rate ?? 0, rampToPerSec: rampTo })],
}));

const countLoad = loadOf("count").superRefine((l, ctx) => {
  // Closed pacing keeps its `connections`; a cap of connections opened on demand would do nothing.
  if (l.maxConnections !== undefined && l.rate === undefined) {
    customIssue(
      ctx,
      ["maxConnections"],
      "caps open pacing only; add rate: (requests per second), or use connections: for closed pacing",
    );
  }
}).transform(read("count"));

/** A load as the plan reads it: its model's config fields as given, the common ones, its own requests. */
export type LoadSpec = {
  [M in LoadModel]:
    & { model: M; mix?: z.output<typeof requestListSchema> }
    & z.input<z.ZodObject<(typeof MODEL_FIELDS)[M]>>
    & { [K in CommonFileOption]?: NonNullable<z.input<Options[K]["schema"]>> }
    & z.output<
      z.ZodObject<Omit<typeof commonFields, string & keyof Options>>
    >;
}[LoadModel];

/** One load, chosen by `model`. */
export const loadSchema = z.discriminatedUnion("model", [
  connectionsLoad,
  rateLoad,
  loadOf("throughput").transform(read("throughput")),
  countLoad,
]).meta({
  id: "load",
  description: "One load: an engine model (connections, rate, throughput, count) and its fields",
}) as unknown as z.ZodType<LoadSpec, z.input<typeof connectionsLoad>>;
