/**
 * @module
 * Shared pieces of the Artillery import: issues, `ArtilleryError`, refused features, seconds.
 */
import { MAX_DURATION_MS, MAX_DURATION_WORDS } from "../../validation/duration.ts";
import type { Origins } from "./paths.ts";
import type { Issue } from "../../validation/mod.ts";
import { isRecord } from "../../validation/json_document.ts";

type RunFlag = "environment" | "target" | "overrides" | "variables" | "dotenv" | "scenario-name";
/** `artillery run`'s flags as typed: `-e`'s environment, `-t`'s target, `--overrides` and `-v`'s JSON. */
export type ArtilleryRunFlags = Partial<Record<RunFlag | "output" | "config" | "count", string>> & {
  solo?: boolean;
  insecure?: boolean;
};

/** True for an Artillery script: a `config` mapping with `target` or `phases`, and a `scenarios` list. */
export function isArtilleryScript(doc: unknown): boolean {
  if (!isRecord(doc) || !isRecord(doc.config) || !Array.isArray(doc.scenarios)) return false;
  return doc.config.target !== undefined || doc.config.phases !== undefined;
}

/** Thrown before any load starts when a script uses something loadlab cannot reproduce faithfully. */
export class ArtilleryError extends Error {
  constructor(readonly issues: Issue[]) {
    const lines = issues.map((i) => `\n  ${i.path}: ${i.message}`).join(""),
      s = issues.length === 1 ? "" : "s";
    super(`Artillery script not runnable by loadlab (${issues.length} issue${s}):${lines}`);
    this.name = "ArtilleryError";
  }
}

/** Collects issues and warnings while a script is converted, so all of them are reported together. */
export interface Collector {
  issues: Issue[];
  warnings: string[];
  /** Which script path each converted object came from (paths.ts); left out: not recorded. */
  origins?: Origins;
}

/** Why each Artillery feature is refused and what to do instead, by its key as written. */
const WS_STEP =
  "a WebSocket step runs in an engine: ws scenario, a script's only one: move it to a script of its own";
/** A processor's hooks: a request's two, then a scenario's two. */
export const HOOKS = ["beforeRequest", "afterResponse", "beforeScenario", "afterScenario"];
const HOOK = "runs a JavaScript function: name its CommonJS file in config.processor, or drop it";
const UNSUPPORTED: Record<string, string> = {
  xpath: "XPath captures are not imported: use a json, header or regexp capture",
  ...Object.fromEntries([...HOOKS, "function", "whileTrue"].map((k) => [k, HOOK])),
  plugins: "plugins do not run in loadlab (ensure, expect and metrics-by-endpoint are read): drop this one",
  skipEmptyLines: "payload files always skip empty lines: drop skipEmptyLines",
  engine: "only http scenarios, or a script whose one scenario is engine: ws, are imported: " +
    "put a ws scenario in a script of its own, or drop this one",
  engines: "engine plugins are not imported: drop them",
  ifTrue: "Artillery reads ifTrue inside a request (- get: {url: /a, ifTrue: x > 1}): move it there",
  ws: "ws handshake headers, subprotocols and TLS options are not imported: drop them",
  socketio: "Socket.IO settings are not imported: drop them",
  send: WS_STEP,
  connect: WS_STEP,
  emit: "Socket.IO steps are not imported: rewrite the scenario as engine: ws with send steps, or drop it",
};

/** Records a problem at `path`, reported before any load; returns `result`, so a caller `return`s it. */
export function problem<T = undefined>(out: Collector, path: string, message: string, result?: T): T {
  out.issues.push({ path, message });
  return result as T;
}

/** Records one issue per key of `obj` that is not in `allowed`, with the reason when it is known. */
export function rejectUnknownKeys(obj: object, at: string, allowed: readonly string[], out: Collector) {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const reason = UNSUPPORTED[key] ??
      `"${key}" is not read by loadlab's Artillery import: drop it (docs/EXPERIMENTS.md, "Artillery scripts", lists what is)`;
    problem(out, join(at, key), reason);
  }
}

/** `config` + `phases` -> `config.phases`; a leading dot is dropped for top-level keys. */
export function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

type Fill = (text: string, at: string) => unknown;

/** `v` with `fn` applied to every string in it (to keys too when `keys`), each given its path. */
export function mapStrings(v: unknown, at: string, fn: Fill, keys = false): unknown {
  const inner = (x: unknown, k: string | number) => mapStrings(x, join(at, k), fn, keys);
  if (typeof v === "string") return fn(v, at);
  if (Array.isArray(v)) return v.map(inner);
  if (!isRecord(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [keys ? fn(k, at) : k, inner(x, k)]));
}

const SECONDS_PER_UNIT: Record<string, number> = { ms: 0.001, s: 1, sec: 1, m: 60, min: 60, h: 3600 };

/** Artillery seconds (`30`, `"30s"`, `"2m"`) as a loadlab duration string. */
export function secondsToDuration(value: unknown, path: string, out: Collector): string | undefined {
  let seconds: number | undefined;
  if (typeof value === "number") seconds = value;
  if (typeof value === "string") {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|m|min|h)?\s*$/.exec(value);
    if (m) seconds = Number(m[1]) * SECONDS_PER_UNIT[m[2] ?? "s"];
  }
  if (seconds === undefined || Number.isNaN(seconds) || seconds < 0) {
    return problem(out, path, `expected seconds (a number such as 30), found ${foundText(value)}`);
  }
  const ms = Math.round(seconds * 1000);
  if (ms > MAX_DURATION_MS) {
    // Named here, at the script's key, before a huge value overflows at a loadlab key.
    return problem(out, path, `${foundText(value)} seconds is too long: ${MAX_DURATION_WORDS}, e.g. 3600`);
  }
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** A finite number >= 0, or an issue. */
export function nonNegative(value: unknown, path: string, out: Collector): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  return problem(out, path, `expected a number >= 0, found ${foundText(value)}`);
}

/** A script's value as an issue shows it: a number past a double's range (YAML's 400 digits) as Infinity. */
function foundText(value: unknown): string {
  return typeof value === "number" ? String(value) : JSON.stringify(value);
}
