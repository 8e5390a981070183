/**
 * @module
 * The one way from an experiment's text to a plan ready to run; each step throws one `ExperimentError`.
 */
import { type Issue, validate } from "../validation/mod.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { ConfigError } from "../validation/config_error.ts";
import { importArtillery, isArtilleryScript } from "./artillery/convert.ts";
import { type OriginTable, scriptIssues } from "./artillery/paths.ts";
import { ExperimentError } from "./experiment_error.ts";
import { applyOverrides } from "./overrides.ts";
import { planExperiment } from "./plan/plan.ts";
import { checkPlan } from "./plan/check.ts";
import { preflightPlan } from "./plan/preflight.ts";
import type { Plan, PlannedRun, PlanOptions } from "./plan/types.ts";
import { type Experiment, experimentSchema } from "./schema/experiment.ts";
import { parseDocument } from "./yaml_document.ts";
import { readDataTables, templateIssues } from "./plan/data.ts";
import { anchorTargets } from "./schema/targets.ts";
import { dirname } from "node:path";
import { anchorScript } from "./script_source.ts";
import { stringify } from "yaml";
import { rememberSource } from "../results/source_data.ts";
import { grpcCallsOf } from "./grpc/experiment.ts";
import { grpcFlowsOf } from "./grpc/flow_steps.ts";

/** Options of `loadExperiment`, as the command line gives them. */
interface LoadOptions {
  /** Shown in error messages. */
  file?: string;
  /** Apply the `quick:` section. */
  quick?: boolean;
  /** `PATH=VALUE` overrides, applied in order. */
  set?: string[];
  /** Targets replaced by running servers: name -> URL. */
  targets?: Record<string, string>;
  /** `--profile`: a CPU profile of every target loadlab starts, for every run. */
  profile?: boolean;
  /** `--abort-on-fail`: `abortOnFail` (and `delayAbortEval` from `delayMs`) on every threshold. */
  abortOnFail?: { delayMs?: number };
}

/** Options of `loadPlan`: those of `loadExperiment`, then what picks, cuts and checks the runs. */
export interface LoadPlanOptions extends LoadOptions {
  /** `--only target=X,load=Y`. */
  only?: PlanOptions["only"];
  /** `--no-redact`: run names and sweep coordinates keep secret values (scenarios/plan/plan.ts). */
  keepSecrets?: boolean;
  /** `--segment i/N`: the plan of one shard. */
  segment?: PlanSegment;
  /** `--start-at`: when the first run of a segment starts. */
  startAtEpochMs?: number;
  /** `--max-memory-mb`: loadlab's memory limit for every run, over what the loads say. */
  maxMemoryMb?: number;
  /** Soft RLIMIT_NOFILE as the caller read it; `null` or left out: unknown, the socket check skipped. */
  openFileLimit?: number | null;
  /** `false`: no checks of this machine, for a plan that is listed, not run (`loadlab presets`). */
  preflight?: boolean;
}

/**
 * An experiment's text as a plan ready to run; throws `ExperimentError` with every problem of the first
 * step that has any (an unknown `--only` name, or a plan that cannot be cut into segments, too).
 *
 * @example loadPlan(Deno.readTextFileSync("study.yaml"), { file: "study.yaml", openFileLimit: 1024 })
 */
export function loadPlan(text: string, opts: LoadPlanOptions = {}): Plan {
  return loadRunnable(text, opts).plan;
}

/** A plan ready to run and the experiment as it runs (`ranSource`: null when nothing changed the file). */
export interface Runnable {
  plan: Plan;
  /** The experiment as YAML with the overrides applied; null when unchanged or an Artillery script. */
  ranSource: string | null;
  /** Notes on an imported Artillery script that change no request, for the command to print. */
  notes: string[];
}

/** `loadPlan` with the experiment as it runs, from one parse of `text`. */
export function loadRunnable(text: string, opts: LoadPlanOptions = {}): Runnable {
  const read = readExperiment(text, opts);
  if (!read.script) return planRunnable(read, opts);
  try {
    return planRunnable(read, opts);
  } catch (err) {
    // What the later steps find in an imported script is named at the script's paths, as its own issues are.
    if (!(err instanceof ExperimentError)) throw err;
    throw new ExperimentError(scriptIssues([], err.issues, read.script.origins), {
      file: opts.file,
      cause: err,
    });
  }
}

/** The steps after validation, for `loadRunnable`: data and gRPC files read, planned, checked, cut. */
function planRunnable(
  { experiment: read, ranSource, notes }: ReturnType<typeof readExperiment>,
  opts: LoadPlanOptions,
): Runnable {
  // External targets run in the file's folder, as data files are read from it (none for a preset).
  const loaded = opts.file === undefined
    ? read
    : { ...read, targets: anchorTargets(read.targets, dirname(opts.file)) };
  // A script is read from the file's folder, as data files are.
  if (loaded.script) loaded.script = anchorScript(loaded.script, opts.file);
  // Data files are read now (relative to the file) and every placeholder checked against them.
  const { tables, issues: dataIssues } = readDataTables(loaded, opts.file);
  // A grpc: section's call is read (its schema relative to the file) and encoded once, now.
  const grpc = loaded.grpc === undefined ? undefined : grpcCallsOf(loaded.grpc, opts.file);
  // The flows' grpc: steps are checked against the section's schema, which then travels with their runs.
  const grpcFlows = grpcFlowsOf(loaded, grpc?.root);
  const experiment = {
    ...loaded,
    dataTables: tables,
    ...(grpc ? { grpcRequests: grpc.requests } : {}),
    ...(grpcFlows.schema ? { grpcSchema: grpcFlows.schema } : {}),
  };
  const placeholderIssues = dataIssues.length > 0 ? dataIssues : templateIssues(experiment);
  if (placeholderIssues.length > 0) throw new ExperimentError(placeholderIssues, { file: opts.file });
  if (grpc && grpc.issues.length > 0) throw new ExperimentError(grpc.issues, { file: opts.file });
  if (grpcFlows.issues.length > 0) throw new ExperimentError(grpcFlows.issues, { file: opts.file });
  const full = withMemoryLimit(
    planExperiment(experiment, { keepSecrets: opts.keepSecrets }),
    opts.maxMemoryMb,
  );
  // What only the engine's own schema knows (workers > connections, flows on a throughput load, ...),
  // checked for every run of the file now rather than when that run's turn comes.
  const runIssues = checkPlan(full);
  if (runIssues.length > 0) throw new ExperimentError(runIssues, { file: opts.file });
  // --only picks from a file checked in full (a broken run is a broken file even when not picked); the
  // picked runs are ordered among themselves, so they are planned as such.
  let plan = opts.only
    ? withMemoryLimit(
      planExperiment(experiment, { only: opts.only, keepSecrets: opts.keepSecrets }),
      opts.maxMemoryMb,
    )
    : full;
  if (opts.segment) plan = segmentPlan(plan, opts.segment, opts.startAtEpochMs);
  if (opts.preflight !== false) {
    plan = preflightPlan(plan, { file: opts.file, openFileLimit: opts.openFileLimit });
  }
  return { plan, ranSource, notes };
}

/** `plan` with `maxMemoryMb` (`--max-memory-mb`) on every run's attack; as it was without one. */
function withMemoryLimit(plan: Plan, maxMemoryMb: number | undefined): Plan {
  if (maxMemoryMb === undefined) return plan;
  const limited = (run: PlannedRun) => ({ ...run, attack: { ...run.attack, maxMemoryMb } });
  return {
    ...plan,
    runs: plan.runs.map(limited),
    searches: plan.searches.map((search) => ({ ...search, base: limited(search.base) })),
  };
}

/**
 * Parses, converts, overrides and validates an experiment file, not yet planned; throws
 * `ExperimentError` with every issue.
 *
 * @example loadExperiment(Deno.readTextFileSync("study.yaml"), { file: "study.yaml", set: ["repeats=5"] })
 */
export function loadExperiment(text: string, opts: LoadOptions = {}): Experiment {
  return readExperiment(text, opts).experiment;
}

/** `loadExperiment` with the experiment as it runs and, for an Artillery script, its conversion. */
function readExperiment(
  text: string,
  opts: LoadOptions,
): Omit<Runnable, "plan"> & { experiment: Experiment; script?: ScriptImport } {
  const parsed = parseDocument(text);
  if (!parsed.ok) throw new ExperimentError(parsed.issues, { file: opts.file });
  rememberSource(text, parsed.value);
  const { doc, notes, script } = fromArtillery(parsed.value, opts);
  const overridden = applyOverrides(doc, opts);
  if (!overridden.ok) {
    throw new ExperimentError([...script?.issues ?? [], ...overridden.issues], { file: opts.file });
  }
  const experiment = abortingThresholds(validateExperiment(overridden.value, opts, script), opts.abortOnFail);
  const changed = opts.quick || (opts.set?.length ?? 0) > 0 || Object.keys(opts.targets ?? {}).length > 0;
  if (!changed || script) return { experiment, ranSource: null, notes, script };
  const { quick: _quick, ...ran } = overridden.value as Record<string, unknown>;
  const ranSource = stringify(ran, { lineWidth: 0 });
  rememberSource(ranSource, ran);
  return { experiment, ranSource, notes };
}

/** The experiment with `--abort-on-fail` applied to every threshold (unchanged without the flag). */
function abortingThresholds(exp: Experiment, abort: LoadOptions["abortOnFail"]): Experiment {
  if (!abort) return exp;
  const delay = abort.delayMs === undefined ? {} : { delayAbortEvalMs: abort.delayMs };
  return { ...exp, thresholds: exp.thresholds.map((t) => ({ ...t, abortOnFail: true, ...delay })) };
}

/** An imported Artillery script's own issues, and the script's path of each converted part. */
interface ScriptImport {
  issues: Issue[];
  origins: OriginTable;
}

/** An Artillery script as its experiment, even with issues: they are reported with the experiment's own. */
function fromArtillery(
  doc: unknown,
  opts: LoadOptions,
): { doc: unknown; notes: string[]; script?: ScriptImport } {
  if (!isArtilleryScript(doc)) return { doc, notes: [] };
  const { experiment, notes, issues, origins } = importArtillery(doc, { file: opts.file });
  return { doc: experiment, notes, script: { issues, origins } };
}

/** Validates an experiment object (already parsed); also checks the `quick:` section when not applied. */
function validateExperiment(input: unknown, opts: LoadOptions, script?: ScriptImport): Experiment {
  const result = validate(experimentSchema, input);
  const found = result.ok ? [] : result.issues;
  const issues = script ? scriptIssues(script.issues, found, script.origins) : found;
  if (!result.ok || issues.length > 0) {
    throw new ExperimentError(issues, { file: opts.file, cause: result.ok ? undefined : result.error });
  }
  if (!opts.quick && result.data.quick !== undefined) {
    // A broken quick: section should fail now, not the first time someone passes --quick.
    const quick = applyOverrides(input, { quick: true });
    const checked = quick.ok ? validate(experimentSchema, quick.value) : quick;
    if (!checked.ok) {
      const issues = checked.issues.map((i) => ({ path: i.path, message: `${i.message} (with --quick)` }));
      throw new ExperimentError(issues, { file: opts.file });
    }
  }
  return result.data;
}

/** One segment of N, as `--segment i/N` gives it. */
export interface PlanSegment {
  index: number;
  count: number;
}

/** The plan of shard `segment`; throws `ExperimentError` listing what makes the experiment unsplittable. */
export function segmentPlan(plan: Plan, segment: PlanSegment, startAtEpochMs?: number): Plan {
  const issues = unsplittable(plan);
  const runs = plan.runs.map((run, i) => ({
    ...run,
    attack: {
      ...run.attack,
      segment,
      ...(i === 0 && startAtEpochMs !== undefined ? { startAtEpochMs } : {}),
    },
  }));
  for (const run of runs) issues.push(...segmentIssues(run));
  if (issues.length) throw new ExperimentError(issues);
  return { ...plan, runs };
}

/** What keeps `plan` from being split: started targets, searches, `warmup: auto`, `abortOnFail`. */
function unsplittable(plan: Plan): Issue[] {
  const issues: Issue[] = [];
  const started = [...new Set(plan.runs.filter((r) => r.target.kind !== "url").map((r) => r.variant))];
  for (const name of started) {
    issues.push({
      path: `targets.${name}`,
      message: "--segment needs url: targets (a server already running that every shard loads); " +
        "loadlab would start this one itself in every shard. Start it once and pass --target " +
        `${name}=http://HOST:PORT`,
    });
  }
  if (plan.searches.length) {
    issues.push({
      path: "search",
      message:
        "a capacity search cannot run with --segment: each probe needs the merged result of every shard",
    });
  }
  if (plan.runs.some((r) => r.warmupAuto)) {
    issues.push({
      path: "warmup",
      message:
        "warmup: auto cannot run with --segment (shards would cut at different points); give a duration",
    });
  }
  plan.experiment.thresholds.forEach((t, i) => {
    if (!t.abortOnFail) return;
    issues.push({
      path: `thresholds[${i}].abortOnFail`,
      message: "cannot stop a --segment shard: it holds part of the load and its thresholds are judged by " +
        "loadlab merge on the whole; drop abortOnFail for the shards (attack's --abort-on-fail is refused too)",
    });
  });
  return issues;
}

/** The problems of one segmented run's attack config, each naming the run; none when it parses. */
function segmentIssues(run: PlannedRun): Issue[] {
  try {
    parseAttackConfig({ ...run.attack, url: "http://127.0.0.1/" });
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.issues.map((issue) => ({ ...issue, message: `${issue.message} (in run ${run.name})` }));
  }
}
