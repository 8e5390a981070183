/**
 * @module
 * The checks of an experiment file that span fields, run once its structure is valid.
 */
import { nearest, noSuchName } from "../../validation/suggest.ts";
import {
  builtinSpecSchema,
  exampleSpecSchema,
  externalSpecSchema,
  proxySpecSchema,
} from "../../targets/spec.ts";
import { type ExperimentFields, expressionProblems } from "./object.ts";
import { FILE_OPTIONS, type LoadSpec, WORD_FIELDS } from "./loads.ts";
import type { FileTarget } from "./targets.ts";
import { modelsWithField } from "../../runner/config_fields.ts";
import { LOAD_MODELS } from "../../results/schema/keys.ts";
import { plannedLoads, togetherProblems } from "../together.ts";
import { LOAD_MODEL_FACTS } from "../../results/load_models.ts";
import { issueList, type PathIssue as Issue, repeatsOf } from "../../validation/mod.ts";

type Path = Issue["path"];

export function checkExperiment(exp: ExperimentFields): Issue[] {
  const [issues, add] = issueList();
  const targetNames = Object.keys(exp.targets);
  const loadNames = Object.keys(exp.loads);
  caseFolds(targetNames, add);
  const refer = (path: Path, name: string | undefined, names: string[], what: string) => {
    if (name !== undefined && !setOf(names).has(name)) add(path, noSuchName(what, name, names));
  };
  refer(["baseline"], exp.baseline, targetNames, "target");
  exp.expect?.forEach((e, i) => {
    const [names, what] = e.between === "loads" ? [loadNames, "load"] : [targetNames, "target"];
    refer(["expect", i, "better"], e.better, names, what);
    refer(["expect", i, "than"], e.than, names, what);
    refer(["expect", i, "load"], e.load, loadNames, "load");
    if (e.between === "loads" && e.load !== undefined) {
      add(["expect", i, "load"], "between: loads compares two loads: drop load");
    }
  });
  exp.sweeps.forEach((sweep, i) => {
    sweep.targets?.forEach((t, j) => refer(["sweeps", i, "targets", j], t, targetNames, "target"));
    sweep.loads?.forEach((l, j) => refer(["sweeps", i, "loads", j], l, loadNames, "load"));
    const covered = pick(exp, sweep.targets, sweep.loads);
    for (const message of parameterProblems(sweep.parameter, covered)) {
      add(["sweeps", i, "parameter"], message);
    }
  });
  exp.grpc?.loads?.forEach((l, j) => refer(["grpc", "loads", j], l, loadNames, "load"));
  // The section's call and the flows' gRPC steps alike go to the target's gRPC endpoints.
  const grpcSteps = [exp.flows, ...Object.values(exp.loads).map((l) => l.flows)]
    .some((flows) => flows?.some((f) => f.steps.some((s) => "grpc" in s)));
  const listener = Object.entries(exp.loads).find(([, l]) => l.listener === "grpc")?.[0];
  issues.push(...grpcTargetIssues(exp.targets, exp.grpc?.call !== undefined || grpcSteps, listener));
  if (exp.grid && exp.sweeps.length !== 2) {
    add(["grid"], `a grid crosses exactly two sweeps; found ${exp.sweeps.length}`);
  }
  checkRunCount(exp, add);
  if (exp.search) checkSearch(exp, add, refer);
  exp.thresholds.forEach((t, i) => {
    refer(["thresholds", i, "target"], t.target, targetNames, "target");
    refer(["thresholds", i, "load"], t.load, loadNames, "load");
  });
  // A proxy's named upstream: a known target, and no cycle.
  const clean = new Set<string>();
  for (const [name, target] of Object.entries(exp.targets)) {
    const upstream = namedUpstream(target, ["targets", name]);
    if (upstream === undefined) continue;
    refer(upstream.path, upstream.name, targetNames, "target");
    const cycle = Object.hasOwn(exp.targets, upstream.name) && cycleFrom(exp, upstream.name, name, clean);
    if (cycle) add(upstream.path, `upstreams form a cycle: ${cycle.join(" -> ")}`);
  }
  for (const limit of ["setupTimeout", "teardownTimeout"] as const) {
    if (exp[limit] !== undefined && exp.script === undefined) {
      add([limit], `${limit} limits a session script's ${limit.slice(0, -7)}(); add script: or remove it`);
    }
  }
  if (exp.warmup === "auto" && exp.intervalHistograms === "none") {
    add(
      ["warmup"],
      "warmup: auto cuts at the stabilization time from the interval histograms; keep them (intervalHistograms: keep)",
    );
  }
  issues.push(...togetherProblems(exp));
  checkSessionsOnly(exp, add);
  return issues;
}

/** Target names equal to an earlier one lower-cased (`App`, `app`): each names a folder (`logs/<target>`). */
function caseFolds(names: readonly string[], add: Add): void {
  for (const [j, i] of repeatsOf(names, (name) => name.toLowerCase())) {
    const [name, earlier] = [names[i], names[j]];
    add(
      ["targets", name],
      `"${name}" and "${earlier}" differ only in case; each names its log folder (logs/<target>), ` +
        `one folder on a filesystem that ignores case (macOS, Windows): rename one, e.g. "${name}-2"`,
    );
  }
}

/** The problems of `targets` receiving the `grpc:` section's calls or loads on the gRPC listener. */
export function grpcTargetIssues(
  targets: Record<string, FileTarget>,
  calls: boolean,
  listener?: string,
): Issue[] {
  const [issues, add] = issueList();
  for (const [name, target] of Object.entries(targets)) {
    if (target.kind !== "builtin") {
      if (listener !== undefined) {
        add(
          ["targets", name],
          `load "${listener}" is sent to the gRPC listener (listener: grpc), which only the ` +
            "built-in target has (kind: builtin, grpc: true)",
        );
      }
      continue;
    }
    if (target.grpc && target.instances !== undefined && target.instances !== 1) {
      add(
        ["targets", name, "grpc"],
        `grpc: true serves one instance's gRPC endpoints, not ${JSON.stringify(target.instances)}: ` +
          "drop instances (or set it to 1)",
      );
    }
    if (listener !== undefined && !target.grpc) {
      add(
        ["targets", name],
        `load "${listener}" is sent to the gRPC listener (listener: grpc): add grpc: true`,
      );
    }
    if (calls && !target.grpc) {
      add(
        ["targets", name],
        "the grpc: section's calls need the built-in target's gRPC endpoints: add grpc: true",
      );
    }
  }
  return issues;
}

/** A sessions-only file without `requests:` gives a load that cannot run sessions nothing to send. */
function checkSessionsOnly(exp: ExperimentFields, add: Add): void {
  if (exp.requests !== undefined || exp.grpc?.call !== undefined) return;
  if (exp.flows === undefined && exp.script === undefined) return;
  for (const [name, load] of Object.entries(exp.loads)) {
    const noSessions = LOAD_MODEL_FACTS[load.model].noFlows;
    if (noSessions === undefined || load.mix !== undefined) continue;
    add(
      ["loads", name],
      `runs none of the file's ${exp.flows ? "flows" : "script"} (${noSessions}) and the file has no ` +
        "requests: give it mix: or the file requests:, or use model rate, connections or count",
    );
  }
}

type Add = (path: Path, message: string) => void;

type Refer = (path: Path, name: string | undefined, names: string[], what: string) => void;

function checkSearch(exp: ExperimentFields, add: Add, refer: Refer): void {
  const search = exp.search!;
  const loadNames = Object.keys(exp.loads);
  if (search.load === undefined && loadNames.length > 1) {
    add(
      ["search", "load"],
      `missing; there are several loads (${loadNames.join(", ")}): name the one to search`,
    );
  }
  refer(["search", "load"], search.load, loadNames, "load");
  const targetNames = Object.keys(exp.targets);
  search.targets?.forEach((t, j) => refer(["search", "targets", j], t, targetNames, "target"));
  const load = search.load ?? loadNames[0];
  if (!(load in exp.loads)) return;
  for (const message of parameterProblems(search.parameter, pick(exp, search.targets, [load]))) {
    add(["search", "parameter"], message);
  }
  const field = search.parameter.slice(search.parameter.indexOf(".") + 1);
  if (search.parameter.startsWith("load.") && Object.hasOwn(WORD_FIELDS, field)) {
    add(
      ["search", "parameter"],
      `${search.parameter} takes words; a search bisects numbers: sweep it instead`,
    );
  }
  for (const part of splitSlo(search.slo)) {
    for (const message of expressionProblems(part)) add(["search", "slo"], message);
  }
}

/** `p99 < 100ms and success >= 99.9%` -> its parts. */
export function splitSlo(slo: string): string[] {
  return slo.split(/\s+and\s+|\s*&&\s*|\s*,\s*/).filter((part) => part.trim() !== "");
}

type Covered = ReturnType<typeof pick>;

function pick(exp: ExperimentFields, targets?: string[], loads?: string[]) {
  return {
    targets: Object.entries(exp.targets).filter(([n]) => !targets || targets.includes(n)),
    loads: Object.entries(exp.loads).filter(([n]) => !loads || loads.includes(n)),
  };
}

/** Load fields a sweep or search may set, and the models that have them (read from the models' records). */
const LOAD_FIELDS: Record<string, readonly LoadSpec["model"][]> = {
  rate: modelsWithField("phases", "ratePerSec"),
  requests: modelsWithField("requests"),
  duration: modelsWithField("phases", "durationMs"),
  ...Object.fromEntries(
    FILE_OPTIONS.filter(([, o]) => o.sweep)
      .map(([key, o]) => [o.file, o.model ? modelsWithField(key) : LOAD_MODELS]),
  ),
};

const TARGET_FIELDS: Record<string, string[]> = {
  builtin: Object.keys(builtinSpecSchema.shape),
  external: Object.keys(externalSpecSchema.shape),
  example: Object.keys(exampleSpecSchema.shape),
  proxy: Object.keys(proxySpecSchema.shape),
};

function parameterProblems(parameter: string, covered: Covered): string[] {
  const dot = parameter.indexOf(".");
  const [scope, field] = [parameter.slice(0, dot), parameter.slice(dot + 1)];
  if (scope === "load") return loadFieldProblems(field, covered.loads);
  if (scope === "target") return targetFieldProblems(field, covered.targets);
  return [];
}

function loadFieldProblems(field: string, loads: Array<[string, LoadSpec]>): string[] {
  const models = LOAD_FIELDS[field];
  if (!models) {
    const guess = nearest(field, Object.keys(LOAD_FIELDS));
    return [
      `load.${field} cannot be varied; ${guess ? `did you mean load.${guess}? ` : ""}use one of ${
        Object.keys(LOAD_FIELDS).map((f) => `load.${f}`).join(", ")
      }`,
    ];
  }
  const problems: string[] = [];
  for (const [name, load] of loads) {
    if (!models.includes(load.model)) {
      problems.push(
        `load "${name}" (model ${load.model}) has no ${field}; limit the loads (loads: [...]) to ${
          models.join(" or ")
        } loads`,
      );
    } else if (
      (field === "rate" || field === "duration") && "phases" in load &&
      (load.phases.length > 1 || load.phases[0].rampToPerSec !== undefined)
    ) {
      problems.push(
        `load.${field} needs a load with one rate; load "${name}" has ${load.phases.length} phases or a ramp (write it as rate: + duration:)`,
      );
    }
  }
  return problems;
}

function targetFieldProblems(field: string, targets: Array<[string, FileTarget]>): string[] {
  const problems: string[] = [];
  for (const [name, target] of targets) {
    if (target.kind === "url") {
      problems.push(
        `target "${name}" is a running server (url); target.${field} needs a target loadlab starts`,
      );
      continue;
    }
    const fields = TARGET_FIELDS[target.kind].filter((f) => f !== "kind" && f !== "upstream");
    if (fields.includes(field)) continue;
    const guess = nearest(field, fields);
    problems.push(
      `a ${target.kind} target (${name}) has no ${field}; ${
        guess ? `did you mean target.${guess}?` : `fields: ${fields.join(", ")}`
      }`,
    );
  }
  return problems;
}

/** The chain of upstreams from `first` through `name` back to one seen, or undefined. */
function cycleFrom(exp: ExperimentFields, name: string, first: string, clean: Set<string>) {
  const seen = [first];
  const seenSet = new Set(seen);
  for (let next: string | undefined = name; next !== undefined && !clean.has(next);) {
    if (seenSet.has(next)) return [...seen, next];
    seen.push(next);
    seenSet.add(next);
    next = namedUpstream(exp.targets[next], [])?.name;
  }
  for (const n of seen) clean.add(n);
  return undefined;
}

/** The target name a target's upstream chain (through inline proxy specs) ends at, and the path naming it. */
function namedUpstream(target: FileTarget | undefined, path: Path): { name: string; path: Path } | undefined {
  for (let current = target; current?.kind === "proxy";) {
    const upstream: string | FileTarget = current.upstream;
    path = [...path, "upstream"];
    if (typeof upstream === "string") return { name: upstream, path };
    current = upstream;
  }
  return undefined;
}

/** Names as a set, made once per list: a list of 10,000 names is searched as often as it is long. */
const nameSets = new WeakMap<readonly string[], Set<string>>();
function setOf(names: readonly string[]): Set<string> {
  let set = nameSets.get(names);
  if (set === undefined) nameSets.set(names, set = new Set(names));
  return set;
}

/** Whether a sweep varies the runs of `target` x `load` (it names neither, or both among its own). */
export const sweepCovers = (s: { targets?: string[]; loads?: string[] }, target: string, load: string) =>
  (!s.targets || s.targets.includes(target)) && (!s.loads || s.loads.includes(load));

/** The most runs one experiment makes: at a run a second, close to three hours. */
const MAX_RUNS = 10_000;

/** The runs `exp` makes (before `--only`), at most: interleaved order drops a point two targets share. */
function runCount(exp: ExperimentFields): number {
  let points = 0;
  for (const target of Object.keys(exp.targets)) {
    for (const load of plannedLoads(exp, Object.keys(exp.loads))) {
      const sizes = exp.sweeps.filter((s) => sweepCovers(s, target, load)).map((s) => s.values.length);
      if (sizes.length === 0) points += 1;
      else if (exp.grid && sizes.length === 2) points += sizes[0] * sizes[1];
      else points += sizes.reduce((a, b) => a + b, 0);
    }
  }
  return points * exp.repeats;
}

/** The problem of a file making more than `MAX_RUNS` runs, at `repeats` or `sweeps`. */
function checkRunCount(exp: ExperimentFields, add: Add): void {
  const count = runCount(exp);
  // Repeats past 2^53 are refused as such: no second line counting their runs.
  if (count <= MAX_RUNS || !Number.isSafeInteger(exp.repeats)) return;
  const byRepeats = exp.repeats > MAX_RUNS || exp.sweeps.length === 0 || exp.repeats >= count / exp.repeats;
  add(
    [byRepeats ? "repeats" : "sweeps"],
    `${count.toLocaleString("en-US")} runs (targets x loads x sweep points x repeats) are more than ` +
      `one experiment makes, at most ${MAX_RUNS.toLocaleString("en-US")}: give ${
        byRepeats ? "fewer repeats" : "fewer sweep values (a grid multiplies its two sweeps)"
      } or split the file`,
  );
}
