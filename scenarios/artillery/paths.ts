/**
 * @module
 * Where each part of an imported Artillery script came from, to name problems at the user's path.
 */
import { formatPath, holds, type Issue, nearestOrigin } from "../../validation/mod.ts";

/** The script's path of one converted object, and of those of its keys that have their own. */
export interface Origin {
  /** The script's path that produced the object (`scenarios[0].flow[2].get`). */
  at: string;
  /** Converted key -> the script's path of its value, where it differs from `at` (`path` -> `...get.url`). */
  keys?: Record<string, string>;
  /** The object's keys below it are the script's own (headers, a JSON body): a deeper path keeps its tail. */
  mirrors?: boolean;
}

/** The tags of one conversion: converted object -> its origin. Weak, so loops' repeated steps share one. */
export type Origins = WeakMap<object, Origin>;

/** Tags `value` as made from the script's `origin.at` (when it is an object); returns `value`. */
export function tagOrigin<T>(origins: Origins | undefined, value: T, origin: Origin): T {
  if (origins && typeof value === "object" && value !== null) origins.set(value, origin);
  return value;
}

/** The origin of a list whose item `i` came from `paths[i]` (a flow's steps, the thresholds). */
export function listOrigin(at: string, paths: readonly string[]): Origin {
  return { at, keys: Object.fromEntries(paths.map((path, i) => [i, path])) };
}

/** Every tagged object of `experiment` (and its keys with paths of their own), by converted path. */
export function originTable(experiment: unknown, origins: Origins): OriginTable {
  const table: OriginTable = new Map();
  const walk = (value: unknown, path: PropertyKey[]): void => {
    if (typeof value !== "object" || value === null) return;
    const isList = Array.isArray(value);
    const origin = origins.get(value);
    if (origin) {
      const mirrors = origin.mirrors ?? false;
      table.set(formatPath(path), { at: origin.at, mirrors });
      for (const [key, at] of Object.entries(origin.keys ?? {})) {
        const hole = (value as Record<string, unknown>)[key] === undefined ? origin.at : undefined;
        table.set(formatPath([...path, isList ? Number(key) : key]), { at, mirrors, hole });
      }
    }
    // Children after their parent's keys: an object's own tag is nearer than the key naming it.
    for (const [key, child] of Object.entries(value)) walk(child, [...path, isList ? Number(key) : key]);
  };
  walk(experiment, []);
  return table;
}

/** Converted path -> the script's path, whether a deeper tail is kept, and a valueless key's owner. */
export type OriginTable = Map<string, { at: string; mirrors: boolean; hole?: string }>;

/** The conversion's issues and then the converted experiment's, named at the script's paths, each once. */
export function scriptIssues(conversion: readonly Issue[], converted: readonly Issue[], table: OriginTable) {
  const named = (path: string) => conversion.some((c) => holds(path, c.path));
  const found: Issue[] = [];
  for (const issue of converted) {
    const at = nearestOrigin(table, issue.path) ?? { path: issue.path, hole: undefined };
    if (named(at.path) || (at.hole !== undefined && named(at.hole))) continue;
    found.push({ path: at.path, message: issue.message });
  }
  const repeated = (issue: Issue, j: number) =>
    found.some((o, k) =>
      o.message === issue.message && (o.path === issue.path ? k < j : holds(issue.path, o.path))
    );
  return [...conversion, ...found.filter((issue, j) => !repeated(issue, j))];
}
