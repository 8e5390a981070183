/**
 * @module
 * Experiment files (docs/EXPERIMENTS.md) as one zod schema, `experimentSchema`, with the `Experiment`
 * type inferred from it, and `loadExperiment`, which reads YAML or JSON, applies `--quick`, `--set` and
 * `--target` (scenarios/overrides.ts) and validates in full. Every problem is data, `{path, message}`,
 * collected into one `ExperimentError` before anything starts. Checks that span fields (names that must
 * exist, a grid of two sweeps, thresholds that parse, proxy upstreams without cycles) live in
 * scenarios/schema_checks.ts and run once the structure is valid.
 */
import { z } from "zod";
import { expectationShape } from "../results/expectation.ts";
import { type Issue, validate } from "../validation/mod.ts";
import { ExperimentError } from "./experiment_error.ts";
import { checkPlan, planExperiment } from "./plan.ts";
import { durationSchema, flowListSchema, nameSchema, requestListSchema } from "./schema_requests.ts";
import { loadSchema } from "./schema_loads.ts";
import { namedRecord, targetsSchema } from "./schema_targets.ts";
import { checkExperiment, expressionProblems } from "./schema_checks.ts";
import { applyOverrides, parseDocument } from "./overrides.ts";
import { artilleryToExperiment, isArtilleryScript } from "./artillery.ts";
import { ArtilleryError } from "./artillery_common.ts";

export type { FileFlow, FileRequest } from "./schema_requests.ts";
export type { LoadSpec } from "./schema_loads.ts";
export type { FileTarget } from "./schema_targets.ts";
export type { Issue };
export { ExperimentError };

/** `load.<field>`, `query.<name>` or `target.<field>`. */
export const parameterSchema = z.string().regex(
  /^(load|query|target)\.[A-Za-z0-9_-]+$/,
  "a parameter is load.<field>, query.<name> or target.<field>, e.g. load.rate or query.ms",
);

/** Sweep values: numbers, or durations (milliseconds) for duration fields such as load.duration. */
const sweepValueSchema = z.union([z.number(), durationSchema]);

export const sweepSchema = z.strictObject({
  parameter: parameterSchema,
  values: z.array(sweepValueSchema).min(1, "needs at least one value"),
  /** Only these loads (default: all). */
  loads: z.array(z.string()).min(1).optional(),
  /** Only these targets (default: all). */
  targets: z.array(z.string()).min(1).optional(),
});

const percentSchema = z.union([
  z.number().positive("precision must be > 0").max(1, "precision as a number is a ratio 0..1, e.g. 0.05"),
  z.string().regex(/^\d+(\.\d+)?%$/, 'precision is a percentage, e.g. "5%"').transform((s) =>
    parseFloat(s) / 100
  ),
]);

export const searchSchema = z.strictObject({
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
  precision: percentSchema.prefault("5%"),
  maxProbes: z.number().int().min(1, "maxProbes must be >= 1").default(12),
}).transform(({ probe, precision, ...rest }) => ({ ...rest, probeMs: probe, precisionRatio: precision }));

export const thresholdSchema = z.union([
  z.string().min(1),
  z.strictObject({ expr: z.string().min(1), target: z.string().optional(), load: z.string().optional() }),
]).superRefine((t, ctx) => {
  const path = typeof t === "string" ? [] : ["expr"];
  for (const message of expressionProblems(typeof t === "string" ? t : t.expr)) {
    ctx.addIssue({ code: "custom", path, message });
  }
}).transform((t) => (typeof t === "string" ? { expr: t } : t));

const warmupSchema = z.union([z.literal("auto"), durationSchema]).meta({
  expected: 'a duration such as "2s", or "auto"',
});

const experimentObject = z.strictObject({
  name: nameSchema,
  description: z.string().optional(),
  /** A link to the write-up of the study, shown in the report. */
  study: z.string().optional(),
  targets: targetsSchema,
  /** The default request mix of every load. */
  requests: requestListSchema.optional(),
  /** Sessions of several requests, used instead of `requests` by every load without its own. */
  flows: flowListSchema.optional(),
  loads: namedRecord(loadSchema, "load"),
  sweeps: z.array(sweepSchema).default([]),
  /** true with exactly two sweeps: every pair of their values. */
  grid: z.boolean().default(false),
  search: searchSchema.optional(),
  repeats: z.number().int().min(1, "repeats must be >= 1").default(1),
  warmup: warmupSchema.prefault("0s"),
  cooldown: durationSchema.prefault("0s"),
  order: z.enum(["interleaved", "sequential"]).default("interleaved"),
  restart: z.enum(["never", "per-repeat", "per-run"]).default("never"),
  interval: durationSchema.prefault("250ms"),
  baseline: z.string().optional(),
  thresholds: z.array(thresholdSchema).default([]),
  /** Deep-merged over the file by --quick (same shape, shorter); checked in full with --quick. */
  quick: z.record(z.string(), z.unknown()).optional(),
  /** false: results.json, report.html and the CI files keep secrets as they are (like `--no-redact`). */
  redact: z.boolean().default(true),
  /** `none` drops the per-interval HDR histograms from results.json (smaller; no exact warm-up cut). */
  intervalHistograms: z.enum(["keep", "none"]).default("keep"),
  /** Every request of every run to `<out-dir>/requests/<run>.csv` (`code;startUs;endUs;connection`). */
  log: z.boolean().default(false),
  /** As `--strict`: a run loadlab does not trust (results/run_verdict.ts) makes the command exit 6. */
  strict: z.boolean().default(false),
  /** The seed's expected directions ("cached's p99 lower than direct's"), checked in the report. */
  expect: z.array(z.strictObject(expectationShape)).optional(),
});

/** The experiment file format; the output has durations in milliseconds and names with units. */
export const experimentSchema = experimentObject.superRefine((exp, ctx) => {
  for (const issue of checkExperiment(exp)) ctx.addIssue({ code: "custom", ...issue });
}).transform(({ warmup, cooldown, interval, ...rest }) => ({
  ...rest,
  warmupMs: warmup === "auto" ? 0 : warmup,
  warmupAuto: warmup === "auto",
  cooldownMs: cooldown,
  intervalMs: interval,
}));

/** The structure before cross-field checks (what scenarios/schema_checks.ts reads). */
export type ExperimentFields = z.output<typeof experimentObject>;
export type Experiment = z.output<typeof experimentSchema>;

/**
 * The largest experiment file `loadlab run` reads: hand-written and generated studies are kilobytes;
 * checking one is linear in its size, and this keeps that under a few seconds.
 */
export const MAX_EXPERIMENT_FILE_BYTES = 4 * 2 ** 20;

/** Options of `loadExperiment`, as the command line gives them. */
export interface LoadOptions {
  /** Shown in error messages. */
  file?: string;
  /** Apply the `quick:` section. */
  quick?: boolean;
  /** `PATH=VALUE` overrides, applied in order. */
  set?: string[];
  /** Targets replaced by running servers: name -> URL. */
  targets?: Record<string, string>;
  /** Receives notes about an imported Artillery script that change no request. */
  warn?: (message: string) => void;
}

/**
 * Parses, overrides and validates an experiment file; throws `ExperimentError` with every issue.
 *
 * @example loadExperiment(Deno.readTextFileSync("study.yaml"), { file: "study.yaml", set: ["repeats=5"] })
 */
export function loadExperiment(text: string, opts: LoadOptions = {}): Experiment {
  const parsed = parseDocument(text);
  if (!parsed.ok) throw new ExperimentError(parsed.issues, { file: opts.file });
  const overridden = applyOverrides(fromArtillery(parsed.value, opts), opts);
  if (!overridden.ok) throw new ExperimentError(overridden.issues, { file: opts.file });
  return validateExperiment(overridden.value, opts);
}

/** An Artillery script becomes the experiment it describes (so --set and --target apply to it). */
function fromArtillery(doc: unknown, opts: LoadOptions): unknown {
  if (!isArtilleryScript(doc)) return doc;
  try {
    return artilleryToExperiment(doc, { file: opts.file, warn: opts.warn });
  } catch (err) {
    if (err instanceof ArtilleryError) throw new ExperimentError(err.issues, { file: opts.file, cause: err });
    throw err;
  }
}

/** Validates an experiment object (already parsed); also checks the `quick:` section when not applied. */
export function validateExperiment(input: unknown, opts: LoadOptions = {}): Experiment {
  const result = validate(experimentSchema, input);
  if (!result.ok) throw new ExperimentError(result.issues, { file: opts.file, cause: result.error });
  if (!opts.quick && result.data.quick !== undefined) {
    // A broken quick: section should fail now, not the first time someone passes --quick.
    const quick = applyOverrides(input, { quick: true });
    const checked = quick.ok ? validate(experimentSchema, quick.value) : quick;
    if (!checked.ok) {
      const issues = checked.issues.map((i) => ({ path: i.path, message: `${i.message} (with --quick)` }));
      throw new ExperimentError(issues, { file: opts.file });
    }
  }
  // What only the engine's own schema knows (workers > connections, flows on a throughput load, ...),
  // checked for every run now rather than when that run's turn comes.
  const runIssues = checkPlan(planExperiment(result.data));
  if (runIssues.length > 0) throw new ExperimentError(runIssues, { file: opts.file });
  return result.data;
}
