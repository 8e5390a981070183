/**
 * @module
 * The structure of an experiment file as one zod object, `experimentObject`.
 */
import { outputProblems } from "../../results/export/metrics_output.ts";
import { parseFailOnList } from "../../results/fail_on.ts";
import { z } from "zod";
import { expectationShape } from "../../results/conclude/expectation.ts";
import { parseThreshold } from "../../results/thresholds/threshold.ts";
import { durationSchema, flowListSchema, nameSchema, requestListSchema } from "./requests.ts";
import { FILE_OPTIONS, loadSchema, WORD_FIELDS } from "./loads.ts";
import { namedRecord, targetsSchema } from "./targets.ts";
import { dataSourceSchema } from "../data_sources.ts";
import { scriptSourceSchema } from "../script_source.ts";
import { grpcSectionSchema } from "../grpc/experiment.ts";
import { durationMsOf } from "../../validation/duration.ts";
import { shownSweepValue } from "../../results/redact.ts";
import { escapeHidden, terminalSafe } from "../../validation/terminal_text.ts";
import { customIssue, repeatsOf } from "../../validation/mod.ts";

/** `load.<field>`, `query.<name>` or `target.<field>`. */
const parameterSchema = z.string().regex(
  /^(load|query|target)\.[A-Za-z0-9_-]+$/,
  "a parameter is load.<field>, query.<name> or target.<field>, e.g. load.rate or query.ms",
);

/** Sweep values as written: numbers, durations or words, read by the parameter (sweep_values.ts). */
const sweepValueSchema = z.union([z.number(), z.string()]);

const sweepSchema = z.strictObject({
  parameter: parameterSchema,
  values: z.array(sweepValueSchema).min(1, "needs at least one value"),
  /** Only these loads (default: all). */
  loads: z.array(z.string()).min(1).optional(),
  /** Only these targets (default: all). */
  targets: z.array(z.string()).min(1).optional(),
}).transform((sweep, ctx) => {
  const read = readSweepValues(sweep.parameter, sweep.values);
  for (const { index, message } of read.problems) {
    customIssue(ctx, index === null ? ["values"] : ["values", index], message);
  }
  return read.problems.length ? z.NEVER : { ...sweep, values: read.values };
});

const percentSchema = z.union([
  z.number().positive("precision must be > 0").max(1, "precision as a number is a ratio 0..1, e.g. 0.05"),
  z.string().regex(/^\d+(\.\d+)?%$/, 'precision is a percentage, e.g. "5%"').transform((s) =>
    parseFloat(s) / 100
  ),
]);

const searchSchema = z.strictObject({
  parameter: parameterSchema,
  /** Default: the only load. */
  load: z.string().optional(),
  /** Default: every target. */
  targets: z.array(z.string()).min(1).optional(),
  range: z.tuple([z.number(), z.number()]).refine(
    ([lo, hi]) => lo < hi,
    "range is [low, high] with low < high",
  ),
  slo: z.string().min(1, 'slo is like "p99 < 100ms and success >= 99.9%"'),
  probe: durationSchema.prefault("5s"),
  /** The bisection stops when its bracket is this narrow, relative (0.05 or "5%"). */
  precision: percentSchema.prefault("5%"),
  maxProbes: z.number().int().min(1, "maxProbes must be >= 1").default(12),
}).transform(({ probe, ...rest }) => ({ ...rest, probeMs: probe }));

/** A threshold: an expression, or an object with its scope, `abortOnFail` and `delayAbortEval`. */
const thresholdSchema = z.union([
  z.string().min(1),
  z.strictObject({
    expr: z.string().min(1).optional(),
    /** k6's key for the expression: the same as `expr`. */
    threshold: z.string().min(1).optional(),
    target: z.string().optional(),
    load: z.string().optional(),
    abortOnFail: z.boolean().optional(),
    delayAbortEval: durationSchema.optional(),
  }),
]).superRefine((t, ctx) => {
  if (typeof t !== "string" && (t.expr === undefined) === (t.threshold === undefined)) {
    const message = t.expr === undefined
      ? 'needs its expression: expr: "p99<200ms" (or threshold:, as k6 writes it)'
      : "give expr or threshold (k6's name for it), not both";
    customIssue(ctx, [t.expr === undefined ? "expr" : "threshold"], message);
    return;
  }
  const path = typeof t === "string" ? [] : [t.expr === undefined ? "threshold" : "expr"];
  for (const message of expressionProblems(typeof t === "string" ? t : (t.expr ?? t.threshold)!)) {
    customIssue(ctx, path, message);
  }
  if (typeof t !== "string" && t.delayAbortEval !== undefined && !t.abortOnFail) {
    customIssue(ctx, ["delayAbortEval"], "needs abortOnFail: true");
  }
}).transform((t) => {
  if (typeof t === "string") return { expr: t };
  const { delayAbortEval, expr, threshold, ...rest } = t;
  return {
    ...rest,
    expr: (expr ?? threshold)!,
    ...(delayAbortEval !== undefined ? { delayAbortEvalMs: delayAbortEval } : {}),
  };
});

const warmupSchema = z.union([z.literal("auto"), durationSchema]).meta({
  expected: 'a duration such as "2s", or "auto"',
});

/** The one message of a bad `coldStartRequests`. */
const COLD_START_RANGE = "coldStartRequests must be a whole number 0..1000";

export const experimentObject = z.strictObject({
  name: nameSchema,
  description: z.string().optional(),
  /** A link to the write-up of the study, shown in the report. */
  study: z.string().optional(),
  targets: targetsSchema,
  /** The default request mix of every load. */
  requests: requestListSchema.optional(),
  /** Sessions of several requests, used instead of `requests` by every load without its own. */
  flows: flowListSchema.optional(),
  /** gRPC: every load's requests are this call (scenarios/grpc/experiment.ts, docs/GRPC.md). */
  grpc: grpcSectionSchema.optional(),
  /** A session script for every load without its own mix: its path, or the path with its data source. */
  script: scriptSourceSchema.optional(),
  /** How long the script's setup() may take (k6's setupTimeout); past it the run ends before any load. */
  setupTimeout: durationSchema.optional(),
  /** How long the script's teardown() may take after the load; past it, it is cut (the results stay). */
  teardownTimeout: durationSchema.optional(),
  /** Named data sources (CSV, JSON, NDJSON files) that loads and flows pick with `data: NAME`. */
  data: z.record(nameSchema, dataSourceSchema).optional(),
  loads: namedRecord(loadSchema, "load"),
  /** Loads run at the same time as one run, each with its start: `{ browse: 0s, api: 30s }`. */
  together: z.record(nameSchema, durationSchema).optional(),
  sweeps: z.array(sweepSchema).default([]),
  /** true with exactly two sweeps: every pair of their values. */
  grid: z.boolean().default(false),
  search: searchSchema.optional(),
  repeats: z.number().int().min(1, "repeats must be >= 1").default(1),
  warmup: warmupSchema.prefault("0s"),
  cooldown: durationSchema.prefault("0s"),
  order: z.enum(["interleaved", "sequential"]).default("interleaved"),
  restart: z.enum(["never", "per-repeat", "per-run"]).default("never"),
  /** Requests sent one at a time after each start (cold-start curve); default 10 when restarting, else 0. */
  coldStartRequests: z.number().int(COLD_START_RANGE).min(0, COLD_START_RANGE).max(1000, COLD_START_RANGE)
    .optional(),
  interval: durationSchema.prefault("250ms"),
  baseline: z.string().optional(),
  thresholds: z.array(thresholdSchema).default([]),
  /** Deep-merged over the file by --quick (same shape, shorter); checked in full with --quick. */
  quick: z.record(z.string(), z.unknown()).optional(),
  /** false: results.json, report.html and the CI files keep secrets as they are (like `--no-redact`). */
  redact: z.boolean().default(true),
  /** `none`: no per-interval histograms (no exact warm-up cut); `endpoints`: each endpoint's too. */
  intervalHistograms: z.enum(["keep", "none", "endpoints"]).default("keep"),
  /** Every request of every run to `<out-dir>/requests/<run>.csv` (`code;startUs;endUs;connection`). */
  log: z.boolean().default(false),
  /** As `--strict`: a run loadlab does not trust (results/conclude/run_verdict.ts) makes it exit 6. */
  strict: z.boolean().default(false),
  /** A saved results.json (or its folder) to gate every run against; `--baseline` wins. */
  compareWith: z.string().min(1).optional(),
  /** The gate's rules, as `--fail-on` (which replaces them): e.g. "p99 +10%", "rps -5%", "success -0.1pp". */
  failOn: z.array(
    z.string().superRefine((rule, ctx) => {
      for (const message of problemsOf(parseFailOnList, rule)) customIssue(ctx, [], message);
    }),
  ).default([]),
  /** Metrics outputs, as `--out KIND=URL` (which replaces them): streamed per interval while the runs go. */
  out: z.array(z.string()).superRefine((values, ctx) => {
    for (const [i, problem] of outputProblems(values)) customIssue(ctx, [i], problem);
  }).optional(),
  /** The expected directions ("cached's p99 lower than direct's"), checked in the report. */
  expect: z.array(z.strictObject(expectationShape)).optional(),
});

/** The structure before cross-field checks (what scenarios/schema/checks.ts reads). */
export type ExperimentFields = z.output<typeof experimentObject>;

/** Why a threshold expression does not parse (results/thresholds/threshold.ts), or nothing. */
export function expressionProblems(expression: string): string[] {
  return problemsOf(parseThreshold, expression);
}

/** What `parse` throws on `text` (a threshold, a `failOn` rule of results/baseline_gate.ts), or nothing. */
function problemsOf(parse: (text: string) => unknown, text: string): string[] {
  try {
    parse(text);
    return [];
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  }
}

/** A value-level problem: `index` of the value, or null for the sweep's values as a whole. */
interface SweepValueProblem {
  index: number | null;
  message: string;
}

/** The sweep's values, numbers (durations read as milliseconds) or words, and what was wrong. */
export function readSweepValues(parameter: string, written: Array<number | string>) {
  const field = parameter.startsWith("load.") ? parameter.slice("load.".length) : undefined;
  const words = field !== undefined && Object.hasOwn(WORD_FIELDS, field) ? WORD_FIELDS[field] : undefined;
  if (words) return withRepeats(parameter, wordValues(parameter, written, words.options));
  const problems: SweepValueProblem[] = [];
  const values = written.map((value, index) => {
    if (typeof value === "number") return value;
    // A control, line-break or invisible character forges or hides text in the outputs the run names.
    if (LINE_BREAK.test(value) || terminalSafe(value) !== value) {
      const quoted = escapeHidden(JSON.stringify(shownSweepValue(parameter, value)));
      const message = `${quoted} holds a control, line-break or invisible character (a value names its run ` +
        "in every output): write the value without it";
      problems.push({ index, message });
      return value;
    }
    const duration = durationSchema.safeParse(value);
    if (duration.success) return duration.data;
    if (durationMsOf(value.trim()) !== undefined) {
      problems.push({ index, message: duration.error.issues[0].message });
    } else if (field !== undefined) {
      problems.push({
        index,
        message: `${JSON.stringify(value)} is neither a number nor a duration; ${parameter} takes numbers${
          durationField(field) ? " or durations such as 10s" : ""
        } (words are for ${Object.keys(WORD_FIELDS).map((f) => `load.${f}`).join(", ")})`,
      });
    }
    return value;
  });
  const numbers = values.filter((v) => typeof v === "number");
  if (problems.length === 0 && numbers.length > 0 && numbers.length < values.length) {
    // Quoted as every output shows them: a secret parameter's values (`query.api_key`) as their tokens.
    const number = shownSweepValue(parameter, numbers[0]);
    const word = shownSweepValue(parameter, values.find((v) => typeof v === "string")!);
    problems.push({
      index: null,
      message: `one sweep is all numbers (and durations) or all words; found ${number} and ${
        JSON.stringify(word)
      }: split them into two sweeps`,
    });
  }
  return withRepeats(parameter, { values: values as number[] | string[], problems });
}

/** `read` plus a problem per value equal to an earlier one as read (`1s`, `1000ms`, NFC). */
function withRepeats<T extends { values: number[] | string[]; problems: SweepValueProblem[] }>(
  parameter: string,
  read: T,
): T {
  if (read.problems.length > 0) return read;
  const values: Array<number | string> = read.values;
  const key = (value: number | string) =>
    typeof value === "number" ? `n${value}` : `s${value.normalize("NFC")}`;
  for (const [earlier, index] of repeatsOf(values, key)) {
    const value = values[index];
    const shown = shownSweepValue(parameter, value);
    const same = read.values[earlier] === value ? "again" : "in another Unicode form";
    read.problems.push({
      index,
      message: `${JSON.stringify(shown)} is values[${earlier}] ${same}: ${
        same === "again" ? "remove one" : "write both alike and remove one"
      } (each value is one run; repeats: N runs every point N times)`,
    });
  }
  return read;
}

function wordValues(parameter: string, written: Array<number | string>, allowed: readonly string[]) {
  const problems: SweepValueProblem[] = written.flatMap((value, index) =>
    typeof value === "string" && allowed.includes(value) ? [] : [{
      index,
      message: `${JSON.stringify(value)} is not a ${parameter} value; use one of ${allowed.join(", ")}`,
    }]
  );
  return { values: written.map(String), problems };
}

/** Line breaks a terminal or a summary line would break at, beside what `terminalSafe` takes out. */
const LINE_BREAK = /[\t\n\r\u0085\u2028\u2029]/;

/** Load fields given as durations in files (the others are counts and rates). */
function durationField(field: string): boolean {
  return field === "duration" || FILE_OPTIONS.some(([, o]) => o.file === field && o.kind === "ms" && o.sweep);
}
