/**
 * @module
 * An experiment's text to a plan ready to run; each step throws one `ExperimentError`.
 */
import { formatPath, type Issue, issueList, issuesOf, validate } from "../validation/mod.ts";
import { attackConfigSchema, type RelativeAttackInput } from "../runner/config.ts";
import { type ArtilleryRunFlags, isArtilleryScript } from "./artillery/common.ts";
import { type OriginTable, scriptIssues } from "./artillery/paths.ts";
import { ExperimentError } from "./experiment_error.ts";
import { applyOverrides } from "./overrides.ts";
import { mapRuns, planExperiment } from "./plan/plan.ts";
import { preflightPlan } from "./plan/preflight.ts";
import type { Plan, PlannedRun, PlanOptions } from "./plan/types.ts";
import { type Experiment, experimentSchema } from "./schema/experiment.ts";
import { parseDocument, positionOf } from "./yaml_document.ts";
import { readDataTables, templateIssues } from "./plan/data.ts";
import { anchorTargets } from "./schema/targets.ts";
import { dirname } from "node:path";
import { anchorScript } from "./script_source.ts";
import { rememberSource } from "../results/redact_results.ts";
import { targetSpecSchema } from "../targets/spec.ts";
import { shownSweepValue } from "../results/redact.ts";
import { applyParameter } from "./plan/attack.ts";
import { FILE_OPTIONS } from "./schema/loads.ts";
import { sweepCovers } from "./schema/checks.ts";
import { defined } from "../validation/defined.ts";
import { yamlPackage } from "../validation/yaml_package.ts";

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
  /** `artillery run`'s flags, applied to an Artillery script before it converts. */
  artillery?: ArtilleryRunFlags;
}

/** Options of `loadPlan`: those of `loadExperiment`, then what picks, cuts and checks the runs. */
export interface LoadPlanOptions extends LoadOptions, PlanOptions {
  /** `--segment i/N`: the plan of one shard. */
  segment?: RelativeAttackInput["segment"];
  /** `--start-at`: when the first run of a segment starts. */
  startAtEpochMs?: number;
  /** `--max-memory-mb`: loadlab's memory limit for every run, over what the loads say. */
  maxMemoryMb?: number;
  /** Soft RLIMIT_NOFILE as the caller read it; `null` or left out: unknown, the socket check skipped. */
  openFileLimit?: number | null;
  /** `false`: no checks of this machine, for a plan that is listed, not run (`loadlab presets`). */
  preflight?: boolean;
}

/** An experiment's text as a runnable plan; throws `ExperimentError` with the first failing step's issues. */
export async function loadPlan(text: string, opts: LoadPlanOptions = {}): Promise<Plan> {
  return (await loadRunnable(text, opts)).plan;
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
export async function loadRunnable(text: string, opts: LoadPlanOptions = {}): Promise<Runnable> {
  const read = await readExperiment(text, opts);
  try {
    return await planRunnable(read, opts);
  } catch (err) {
    // What the later steps find in an imported script is named at the script's paths, as its own issues are.
    if (!(err instanceof ExperimentError) || !read.script) throw err;
    throw new ExperimentError(scriptIssues([], err.issues, read.script.origins), {
      file: opts.file,
      cause: err,
    });
  }
}

/** The steps after validation, for `loadRunnable`: data and gRPC files read, planned, checked, cut. */
async function planRunnable(
  { experiment: read, ranSource, notes }: Awaited<ReturnType<typeof readExperiment>>,
  opts: LoadPlanOptions,
): Promise<Runnable> {
  // External targets run in the file's folder, as data files are read from it (none for a preset).
  const loaded = opts.file === undefined
    ? read
    : { ...read, targets: anchorTargets(read.targets, dirname(opts.file)) };
  if (loaded.script) loaded.script = anchorScript(loaded.script, opts.file);
  const { tables, issues: dataIssues } = readDataTables(loaded, opts.file);
  // protobuf.js is loaded for a file with a `grpc:` section or a flow's `grpc:` step only.
  const flows = [loaded.flows ?? [], ...Object.values(loaded.loads).map((load) => load.flows ?? [])].flat();
  const grpcStep = flows.some((flow) => flow.steps.some((step) => "grpc" in step));
  const grpcRead = loaded.grpc !== undefined || grpcStep ? await import("./grpc/read.ts") : null;
  const grpc = loaded.grpc === undefined ? undefined : grpcRead?.grpcCallsOf(loaded.grpc, opts.file);
  // The flows' grpc: steps are checked against the section's schema, which then travels with their runs.
  const grpcFlows = grpcRead?.grpcFlowsOf(loaded, grpc?.root) ?? { issues: [] };
  const experiment = {
    ...loaded,
    dataTables: tables,
    ...defined({ grpcRequests: grpc?.requests, grpcSchema: grpcFlows.schema }),
  };
  const placeholderIssues = dataIssues.length > 0 ? dataIssues : templateIssues(experiment);
  const found = [placeholderIssues, grpc?.issues ?? [], grpcFlows.issues].find((list) => list.length > 0);
  if (found) throw new ExperimentError(found, { file: opts.file });
  const planned = (only?: PlanOptions["only"]) =>
    withMemoryLimit(planExperiment(experiment, { only, keepSecrets: opts.keepSecrets }), opts.maxMemoryMb);
  const full = planned();
  // Engine-schema rules (workers > connections, flows on a throughput load, ...) for every run, now.
  const runIssues = checkPlan(full);
  if (runIssues.length > 0) throw new ExperimentError(runIssues, { file: opts.file });
  // --only picks from a file checked in full; the picked runs are planned among themselves.
  let plan = opts.only ? planned(opts.only) : full;
  if (opts.segment) plan = segmentPlan(plan, opts.segment, opts.startAtEpochMs);
  if (opts.preflight !== false) {
    plan = preflightPlan(plan, { file: opts.file, openFileLimit: opts.openFileLimit });
  }
  return { plan, ranSource, notes };
}

/** `plan` with `maxMemoryMb` (`--max-memory-mb`) on every run's attack; as it was without one. */
function withMemoryLimit(plan: Plan, maxMemoryMb: number | undefined): Plan {
  if (maxMemoryMb === undefined) return plan;
  return mapRuns(plan, (run) => ({ ...run, attack: { ...run.attack, maxMemoryMb } }));
}

/** Parses, converts, overrides and validates an experiment, not yet planned; throws `ExperimentError`. */
export async function loadExperiment(text: string, opts: LoadOptions = {}): Promise<Experiment> {
  return (await readExperiment(text, opts)).experiment;
}

/** `loadExperiment` with the experiment as it runs and, for an Artillery script, its conversion. */
async function readExperiment(
  text: string,
  opts: LoadOptions,
): Promise<Omit<Runnable, "plan"> & { experiment: Experiment; script?: ScriptImport }> {
  const parsed = await parseDocument(text);
  if (!parsed.ok) throw new ExperimentError(parsed.issues, { file: opts.file });
  rememberSource(text, parsed.value);
  const { doc, notes, script } = await fromArtillery(parsed.value, opts);
  const overridden = await applyOverrides(doc, opts);
  if (!overridden.ok) {
    throw new ExperimentError([...script?.issues ?? [], ...overridden.issues], { file: opts.file });
  }
  const valid = await validateExperiment(overridden.value, opts, script);
  const experiment = abortingThresholds(valid, opts.abortOnFail);
  const changed = opts.quick || (opts.set?.length ?? 0) > 0 || Object.keys(opts.targets ?? {}).length > 0;
  if (!changed || script) return { experiment, ranSource: null, notes, script };
  const { quick: _quick, ...ran } = overridden.value as Record<string, unknown>;
  const ranSource = (await yamlPackage()).stringify(ran, { lineWidth: 0 });
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
  /** The script as read: where in its file each issue's key is. */
  source: unknown;
}

/** An Artillery script as its experiment, even with issues: they are reported with the experiment's own. */
async function fromArtillery(doc: unknown, opts: LoadOptions) {
  if (!isArtilleryScript(doc) && opts.artillery?.config === undefined) return { doc, notes: [] };
  const { importArtillery } = await import("./artillery/convert.ts");
  const { experiment, notes, issues, origins } = importArtillery(doc, opts);
  return { doc: experiment, notes, script: { issues, origins, source: doc } };
}

/** Validates an experiment object (already parsed); also checks the `quick:` section when not applied. */
async function validateExperiment(
  input: unknown,
  opts: LoadOptions,
  script?: ScriptImport,
): Promise<Experiment> {
  const result = validate(experimentSchema, input);
  const found = result.ok ? [] : result.issues;
  // A script's issue names its key path and, read as YAML, that key's line and column.
  const issues = script
    ? scriptIssues(script.issues, found, script.origins).map((i) => {
      const line = positionOf(script.source, i.path);
      return line === undefined ? i : { ...i, message: `${i.message} (${line})` };
    })
    : found;
  if (!result.ok || issues.length > 0) {
    throw new ExperimentError(issues, { file: opts.file, cause: result.ok ? undefined : result.error });
  }
  if (!opts.quick && result.data.quick !== undefined) {
    // A broken quick: section should fail now, not the first time someone passes --quick.
    const quick = await applyOverrides(input, { quick: true });
    const checked = quick.ok ? validate(experimentSchema, quick.value) : quick;
    if (!checked.ok) {
      const issues = checked.issues.map((i) => ({ path: i.path, message: `${i.message} (with --quick)` }));
      throw new ExperimentError(issues, { file: opts.file });
    }
  }
  return result.data;
}

/** The plan of shard `segment`; throws `ExperimentError` listing what makes the experiment unsplittable. */
export function segmentPlan(plan: Plan, segment: { index: number; count: number }, startAtEpochMs?: number) {
  const issues = unsplittable(plan);
  const runs = plan.runs.map((run, i) => ({
    ...run,
    attack: {
      ...run.attack,
      segment,
      ...(i === 0 && startAtEpochMs !== undefined ? { startAtEpochMs } : {}),
    },
  }));
  for (const { attack, target, name } of runs) {
    for (const i of engineIssues(attack, target)) {
      issues.push({ ...i, message: `${i.message} (in run ${name})` });
    }
  }
  if (issues.length) throw new ExperimentError(issues);
  return { ...plan, runs };
}

/** What keeps `plan` from being split: started targets, searches, `warmup: auto`, `abortOnFail`. */
function unsplittable(plan: Plan): Issue[] {
  const [issues, add] = issueList<string>();
  const started = [...new Set(plan.runs.filter((r) => r.target.kind !== "url").map((r) => r.variant))];
  for (const name of started) {
    add(
      `targets.${name}`,
      "--segment needs url: targets (a server already running that every shard loads); " +
        "loadlab would start this one itself in every shard. Start it once and pass --target " +
        `${name}=http://HOST:PORT`,
    );
  }
  if (plan.searches.length) {
    add(
      "search",
      "a capacity search cannot run with --segment: each probe needs the merged result of every shard",
    );
  }
  if (plan.runs.some((r) => r.warmupAuto)) {
    add(
      "warmup",
      "warmup: auto cannot run with --segment (shards would cut at different points); give a duration",
    );
  }
  plan.experiment.thresholds.forEach((t, i) => {
    if (!t.abortOnFail) return;
    add(
      `thresholds[${i}].abortOnFail`,
      "cannot stop a --segment shard: it holds part of the load and its thresholds are judged by " +
        "loadlab merge on the whole; drop abortOnFail for the shards (attack's --abort-on-fail is refused too)",
    );
  });
  return issues;
}

/** The file keys of attack fields, for issues found by the engine's schema. */
const FILE_KEYS: Record<string, string> = {
  rampToPerSec: "rampTo",
  ...Object.fromEntries(FILE_OPTIONS.map(([key, o]) => [key, o.file])),
  requestMix: "requests",
};

/** Attack fields set once for the whole file, not per load: issues point at the file's key. */
const FILE_WIDE: Record<string, string> = {
  intervalMs: "interval",
  warmupMs: "warmup",
  intervalHistograms: "intervalHistograms",
};

/** The engine schema's issues of `attack`, sent to a stand-in URL of the target's scheme (its TLS rules). */
function engineIssues(attack: RelativeAttackInput, target: PlannedRun["target"]): Issue[] {
  const spec = target.kind === "spec" ? target.spec as { url?: unknown; tls?: unknown } : null;
  const url = target.kind === "url" ? target.url : spec?.url;
  const https = typeof url === "string" ? url.startsWith("https:") : spec?.tls !== undefined;
  const parsed = attackConfigSchema.safeParse({ ...attack, url: `http${https ? "s" : ""}://127.0.0.1/` });
  return parsed.success ? [] : issuesOf(parsed.error, attackConfigSchema);
}

/** Every run's attack and search base checked against the engine's config schema, before any load. */
function checkPlan(plan: Plan): Issue[] {
  const seen = new Map<string, Issue>();
  for (const { run, at } of checkedAttacks(plan)) {
    for (const issue of engineIssues(at.attack, run.target)) {
      const path = filePath(plan, at, issue.path);
      if (!seen.has(path + issue.message)) {
        seen.set(path + issue.message, { path, message: `${issue.message} (in run ${run.name})` });
      }
    }
  }
  for (const issue of targetIssues(plan)) if (!seen.has(issue.path)) seen.set(issue.path, issue);
  return [...seen.values(), ...sameNameIssues(plan), ...searchRangeIssues(plan)];
}

/** A search's range ends checked as its probes would run them, before the bisection reaches them. */
function searchRangeIssues(plan: Plan): Issue[] {
  const issues = new Map<string, Issue>();
  for (const search of plan.searches) {
    search.range.forEach((value, i) => {
      const probe = applyParameter(search.base, search.parameter, value);
      const [issue] = engineIssues(probe.attack, probe.target);
      if (issue === undefined) return;
      const path = formatPath(["search", "range", i]);
      const where = `${search.target}/${search.load}`;
      const message = `${issue.message} (in the search's probe of ${where} at ${value})`;
      if (!issues.has(path)) issues.set(path, { path, message });
    });
  }
  return [...issues.values()];
}

/** Two runs of one name: results and files are keyed by it, so they would read as repeats. */
function sameNameIssues(plan: Plan): Issue[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { name } of plan.runs) (seen.has(name) ? twice : seen).add(name);
  return [...twice].slice(0, 3).map((name) => ({
    path: "sweeps",
    message: `two runs would be named ${JSON.stringify(name)}: the sweeps give one point twice; ` +
      "give each value once (limit a sweep with loads: or targets:, or remove the value from one)",
  }));
}

/** Each attack a run starts: loads run together each start their own workers, so each is checked. */
function checkedAttacks(plan: Plan): Array<{ run: PlannedRun; at: PlannedRun }> {
  return [...plan.runs, ...plan.searches.map((s) => s.base)].flatMap((run) =>
    run.parts === undefined || run.parts.length === 0
      ? [{ run, at: run }]
      : run.parts.map((part) => ({ run, at: { ...run, load: part.name, attack: part.attack } }))
  );
}

/** Every started target's spec as the run starts it (a `target.*` sweep changes it after the check). */
function targetIssues(plan: Plan): Issue[] {
  const found: Issue[] = [];
  for (const run of plan.runs) {
    if (run.target.kind !== "spec") continue;
    const parsed = targetSpecSchema.safeParse(run.target.spec);
    if (parsed.success) continue;
    for (const issue of issuesOf(parsed.error, targetSpecSchema)) {
      const field = issue.path.split(/[.[]/)[0];
      const path = sweepValuePath(plan, run, `target.${field}`) ??
        `${formatPath(["targets", run.variant])}.${issue.path}`;
      found.push({ path, message: `${issue.message} (in run ${run.name})` });
    }
  }
  return found;
}

/** `phases[0].durationMs` of run `t/burst` -> `loads.burst.phases[0].duration` (or its sweep value). */
function filePath(plan: Plan, run: PlannedRun, enginePath: string): string {
  const load = formatPath(["loads", run.load]);
  if (enginePath === "(root)") return load;
  const parts = enginePath.split(/(?=[.[])/);
  const field = parts[0];
  if (FILE_WIDE[field]) return FILE_WIDE[field];
  const swept = sweepValuePath(plan, run, `load.${fileKey(parts.at(-1)!.replace(/^\./, ""))}`);
  if (swept) return swept;
  const rest = parts.slice(1).map((p) => p.startsWith(".") ? `.${fileKey(p.slice(1))}` : p);
  // A load without flows of its own runs the file's (top-level `flows:`), where the step is written.
  const own = field !== "flows" || plan.experiment.loads[run.load]?.flows !== undefined;
  return `${own ? `${load}.` : ""}${fileKey(field)}${rest.join("")}`;
}

function fileKey(field: string): string {
  return FILE_KEYS[field] ?? field;
}

/** `sweeps[i].values[j]` when the run's sweep point set `parameter` (`load.rate`, `target.workers`). */
function sweepValuePath(plan: Plan, run: PlannedRun, parameter: string): string | undefined {
  for (const point of [run.sweep, run.sweep2]) {
    if (point?.parameter !== parameter) continue;
    for (const [i, s] of plan.experiment.sweeps.entries()) {
      if (s.parameter !== parameter || !sweepCovers(s, run.variant, run.load)) continue;
      // The run shows a secret (or a URL password) redacted (scenarios/plan/plan.ts); the file has the value.
      const j = (s.values as Array<number | string>).findIndex((v) =>
        v === point.value || shownSweepValue(s.parameter, v) === point.value
      );
      if (j >= 0) return formatPath(["sweeps", i, "values", j]);
    }
  }
  return undefined;
}
