/**
 * @module
 * What the command line changes in an experiment before validation: --quick, --set, --target.
 */
import type { Issue, Result } from "../validation/mod.ts";
import { shownAssignment, shownFieldValue } from "../results/redact.ts";
import { nearest, noSuchName } from "../validation/suggest.ts";
import { isRecord } from "../validation/json_document.ts";
import { yamlPackage } from "../validation/yaml_package.ts";

/** Keys every object has: as a map name they set the prototype (`__proto__`) or read an inherited value. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Applies `quick`, every `set`, every `targets` replacement, then `profile`, to a copy of `doc`. */
export async function applyOverrides(
  doc: unknown,
  opts: { quick?: boolean; set?: string[]; targets?: Record<string, string>; profile?: boolean },
): Promise<Result<unknown>> {
  if (!isRecord(doc)) return { ok: true, value: doc };
  let value: Record<string, unknown> = structuredClone(doc);
  const issues: Issue[] = [];
  if (opts.quick) {
    if (!isRecord(value.quick)) {
      issues.push({ path: "quick", message: "--quick needs a quick: section in the file" });
    } else {
      const { quick, ...rest } = value;
      value = { ...deepMerge(rest, quick), quick };
    }
  }
  for (const assignment of opts.set ?? []) {
    const problem = await setPath(value, assignment);
    // The value may be a secret (`headers.authorization=Bearer ...`): quoted as every output shows it.
    if (problem) issues.push({ path: `--set ${shownAssignment(assignment)}`, message: problem });
  }
  for (const [name, url] of Object.entries(opts.targets ?? {})) {
    const targets = isRecord(value.targets) ? value.targets : {};
    if (Object.hasOwn(targets, name) && !RESERVED_KEYS.has(name)) {
      targets[name] = { url };
      continue;
    }
    issues.push({
      path: `--target ${name}=${url}`,
      message: noSuchName("target", name, Object.keys(targets)),
    });
  }
  if (opts.profile && isRecord(value.targets)) {
    for (const target of Object.values(value.targets)) profileTarget(target);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}

/** Sets `profile: cpu` on a started target and on its inline upstream; `url` targets are left alone. */
function profileTarget(target: unknown): void {
  if (!isRecord(target) || typeof target.kind !== "string" || target.kind === "url") return;
  target.profile = "cpu";
  if (isRecord(target.upstream)) profileTarget(target.upstream);
}

/** `over` merged into `base` key by key, anything else replaced, `null` removing (JSON Merge Patch). */
export function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === null) delete out[key];
    else out[key] = isRecord(value) && isRecord(base[key]) ? deepMerge(base[key], value) : value;
  }
  return out;
}

/** Sets `PATH=VALUE` in `doc`; returns what is wrong, or undefined. */
export async function setPath(doc: Record<string, unknown>, assignment: string): Promise<string | undefined> {
  const eq = assignment.indexOf("=");
  if (eq <= 0) return "write PATH=VALUE, e.g. --set repeats=5 or --set loads.open.phases[1].rate=300";
  const steps = splitPath(assignment.slice(0, eq).trim());
  if (!steps) {
    return `"${
      assignment.slice(0, eq)
    }" is not a path; write keys with dots and [index], e.g. loads.open.phases[1].rate`;
  }
  const reserved = steps.find((step) => typeof step === "string" && RESERVED_KEYS.has(step));
  if (reserved !== undefined) return `"${reserved}" is a reserved word, not a key; use the field's own name`;
  const yaml = await yamlPackage();
  let value: unknown;
  try {
    value = yaml.parse(assignment.slice(eq + 1));
  } catch (err) {
    return `the value is not valid YAML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`;
  }
  return assign(doc, steps, value === null && assignment.slice(eq + 1).trim() === "" ? "" : value);
}

type Step = string | number;

/** `loads.open.phases[1].rate` -> ["loads", "open", "phases", 1, "rate"]; undefined when malformed. */
export function splitPath(path: string): Step[] | undefined {
  const steps: Step[] = [];
  const token = /([^.[\]]+)|\[(\d+)\]|(\.)/y;
  let expectKey = true;
  while (token.lastIndex < path.length) {
    const m = token.exec(path);
    if (!m) return undefined;
    if (m[3]) {
      if (expectKey) return undefined;
      expectKey = true;
    } else if (m[2] !== undefined) {
      if (steps.length === 0) return undefined;
      steps.push(Number(m[2]));
      expectKey = false;
    } else {
      if (!expectKey) return undefined;
      steps.push(m[1]);
      expectKey = false;
    }
  }
  return steps.length > 0 && !expectKey ? steps : undefined;
}

/** Walks `steps` through existing containers and sets the last one. */
function assign(doc: Record<string, unknown>, steps: Step[], value: unknown): string | undefined {
  let container: unknown = doc;
  let shown = "";
  for (let i = 0; i < steps.length;) {
    const isLast = (n: number) => i + n === steps.length;
    if (Array.isArray(container)) {
      const index = steps[i];
      if (typeof index !== "number") return `${shown || "(root)"} is a list; use [index], e.g. ${shown}[0]`;
      if (index >= container.length) {
        return `${shown}[${index}] does not exist; ${shown} has ${container.length} item${
          container.length === 1 ? "" : "s"
        }`;
      }
      if (isLast(1)) container[index] = value;
      else container = container[index];
      shown += `[${index}]`;
      i += 1;
      continue;
    }
    if (!isRecord(container)) {
      // The value found may be a secret of the file (`env.API_TOKEN`): quoted as the assignment is.
      const found = typeof container === "string"
        ? shownFieldValue(shown, container)
        : JSON.stringify(container);
      return `${shown} is ${
        found === container ? JSON.stringify(container) : found
      }, not an object or a list`;
    }
    const record = container;
    const n = longestKey(record, steps, i);
    const key = n > 0 ? steps.slice(i, i + n).join(".") : String(steps[i]);
    if (typeof steps[i] === "number") return `${shown} is an object; use .key, not [${steps[i]}]`;
    const here = shown ? `${shown}.${key}` : key;
    if (n === 0 && !isLast(1)) {
      const guess = nearest(key, Object.keys(record));
      const keys = Object.keys(record);
      const hint = guess
        ? `; did you mean ${shown ? `${shown}.` : ""}${guess}?`
        : `; the keys ${shown ? `of ${shown} ` : ""}are ${keys.join(", ")}`;
      return `${here} does not exist${hint}`;
    }
    const width = n === 0 ? 1 : n;
    if (isLast(width)) record[key] = value;
    else container = record[key];
    shown = here;
    i += width;
  }
  return undefined;
}

/** How many steps from `from` join (with dots) into the longest existing key of `record`; 0 if none. */
function longestKey(record: Record<string, unknown>, steps: Step[], from: number): number {
  for (let n = steps.length - from; n >= 1; n--) {
    const part = steps.slice(from, from + n);
    if (part.some((s) => typeof s === "number")) continue;
    if (Object.hasOwn(record, part.join("."))) return n;
  }
  return 0;
}
