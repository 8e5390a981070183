/**
 * @module
 * The tags a k6 request carries (the run's, its scenario's, the VU's, `group`, `params.tags` over them), so a
 * threshold by tag selects its requests; k6's `systemTags` cuts those its `--out json` points carry.
 */

import { leftOutTags } from "../../../results/thresholds/selector.ts";
import { isolateFlags } from "./isolate_flags.ts";

let runTags: Readonly<Record<string, string>> | undefined;
let runScenario = "default";

/** The system tags k6's `systemTags` (`kept`) leaves off the run's samples (none by default). */
export let leftOut: ReadonlySet<string> = new Set();
/** The tags `systemTags` names: `vu`, `iter` and `ip` are carried only if named (k6 leaves them out). */
export let named: ReadonlySet<unknown> = new Set();
export function setSystemTags(kept: unknown): void {
  leftOut = leftOutTags(kept);
  named = new Set(Array.isArray(kept) ? kept : []);
}

/** The run's tags: `--tag` (K6_TAGS) replaces `options.tags` whole, as k6's options tiers do. */
export function givenRunTags(options: Record<string, unknown>): Record<string, unknown> {
  return isolateFlags.tags ?? (options.tags as Record<string, unknown> | undefined) ?? {};
}

/** Sets the tags every request of this isolate carries (none: undefined) and the scenario it runs. */
export function setRunTags(tags: Record<string, unknown> | undefined, scenario = "default"): void {
  groupTags.clear();
  const entries = Object.entries(tags ?? {}).filter(([k]) => k !== "name").map(([k, v]) => [k, String(v)]);
  runTags = entries.length === 0 ? undefined : Object.freeze(Object.fromEntries(entries));
  runScenario = scenario;
}

/** The tags of a point k6 writes (`--out json`): the scenario, the run's and VU's tags and the group now. */
export function jsonPointTags(at = now()): Record<string, string> {
  return { scenario: runScenario, ...runTags, ...at?.vu.tags?.merged, group: at?.group ?? "" };
}

/** k6 v1's point metadata of iteration `at` (the one running now unless given): `vu` and `iter` if named. */
export function iterationMetadata(at = now()): Record<string, string> | undefined {
  const kept = at && [["vu", at.vu.id], ["iter", at.iter]].filter(([k]) => named.has(k));
  const own = at?.vu.tags?.metadata;
  if (!kept?.length && (own === undefined || Object.keys(own).length === 0)) return undefined;
  return { ...Object.fromEntries(kept!.map(([k, v]) => [k, String(v)])), ...own };
}

/** An iteration: its group path, its number and its VU (runtime.ts: it knows the VU in progress). */
export type Iteration = { group?: string; iter: number; vu: { id: number; tags?: VuTags } };
let now: () => Iteration | undefined = () => undefined;

export function setTagSource(source: typeof now): void {
  now = source;
}

/** k6's `exec.vu.tags` of one VU: `own` as the script sets it, `merged` over the run's, frozen per change. */
export class VuTags {
  readonly #set: Record<string, string> = {};
  #merged: Readonly<Record<string, string>> | undefined | null = undefined;
  readonly own = new Proxy(this.#set, {
    set: (set, key, value) =>
      typeof key === "string" && (set[key] = String(value), this.#merged = null, true),
    deleteProperty: (set, key) => typeof key === "string" && (delete set[key], this.#merged = null, true),
  });
  /** k6's `exec.vu.metrics.metadata`: text on the VU's later points of `--out json`, never a tag. */
  readonly metadata: Record<string, string> = new Proxy({}, {
    set: (set: Record<string, string>, key, value) =>
      typeof key === "string" && (set[key] = String(value), true),
  });

  get merged(): Readonly<Record<string, string>> | undefined {
    const set = this.#set;
    return this.#merged ??= Object.keys(set).length === 0 ? undefined : Object.freeze({ ...runTags, ...set });
  }
}

/** The run's tags with each group's path, frozen once per path. */
const groupTags = new Map<string, Readonly<Record<string, string>>>();

/** A request's or sample's tags: the run's, `group` (default: current), `given` over them, or undefined. */
export function requestTags(
  given: Record<string, string> | undefined,
  group: string | undefined = now()?.group,
  /** A custom metric's: its `name` tag is a tag (a request's names its endpoint). */
  keepName = false,
): Readonly<Record<string, string>> | undefined {
  const vu = now()?.vu.tags?.merged;
  let base = vu ?? runTags;
  if (group !== undefined && vu !== undefined) base = Object.freeze({ ...vu, group });
  else if (group !== undefined) {
    base = groupTags.get(group);
    if (base === undefined) groupTags.set(group, base = Object.freeze({ ...runTags, group }));
  }
  if (given === undefined) return base;
  let own: Record<string, string> | undefined;
  for (const key in given) {
    tagValue(key, given[key]);
    if (key === "name" && !keepName) continue;
    (own ??= { ...base })[key] = String(given[key]);
  }
  return own ?? base;
}

/** Throws k6's error for a tag whose value is no string, number or boolean (undefined, null, an object). */
export function tagValue(key: string, value: unknown): void {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return;
  throw new TypeError(
    `invalid value for metric tag '${key}': only String, Boolean and Number types are accepted as a metric tag values`,
  );
}
