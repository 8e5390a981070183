/**
 * @module
 * Shared pieces of the Artillery import: the issue collector, the `ArtilleryError` thrown with every
 * issue at once, the table that names why each Artillery feature loadlab cannot run is refused, and the
 * seconds parser (Artillery's durations and think times are seconds). Kept apart so the config, flow and
 * ensure converters agree on one wording.
 */
import { MAX_DURATION_MS, MAX_DURATION_WORDS } from "../validation/duration.ts";
import type { Origins } from "./artillery_paths.ts";

/** One problem in an Artillery script, at its path (`scenarios[0].flow[2].capture`). */
export interface ArtilleryIssue {
  path: string;
  message: string;
}

/** Thrown before any load starts when a script uses something loadlab cannot reproduce faithfully. */
export class ArtilleryError extends Error {
  constructor(readonly issues: ArtilleryIssue[]) {
    super(
      `Artillery script not runnable by loadlab (${issues.length} ${
        issues.length === 1 ? "issue" : "issues"
      }):\n` +
        issues.map((i) => `  ${i.path}: ${i.message}`).join("\n"),
    );
    this.name = "ArtilleryError";
  }
}

/** Collects issues and warnings while a script is converted, so all of them are reported together. */
export interface Collector {
  issues: ArtilleryIssue[];
  warnings: string[];
  /** Which script path each converted object came from (artillery_paths.ts); left out: not recorded. */
  origins?: Origins;
}

/** Why each Artillery feature is refused; the key is the property name as written in scripts. */
const UNSUPPORTED: Record<string, string> = {
  match: "Artillery's match is not converted; use an experiment file's expect: checks (docs/EXPERIMENTS.md)",
  expect: "the expect plugin is not converted; use an experiment file's expect: checks (docs/EXPERIMENTS.md)",
  xpath: "XPath captures are not supported (json, header and regexp are)",
  selector: "selector captures are not supported (json, header and regexp are)",
  transform: "capture transforms run JavaScript; loadlab runs no script code",
  strict: "strict captures are the only kind: a capture that finds nothing ends the session",
  function: "runs a JavaScript function; loadlab runs no script code",
  beforeRequest: "runs a JavaScript hook; loadlab runs no script code",
  afterResponse: "runs a JavaScript hook; loadlab runs no script code",
  beforeScenario: "runs a JavaScript hook; loadlab runs no script code",
  afterScenario: "runs a JavaScript hook; loadlab runs no script code",
  processor: "loads JavaScript hooks; loadlab runs no script code",
  plugins: "Artillery plugins do not run in loadlab (only `ensure` and `metrics-by-endpoint` are understood)",
  delimiter: "payload files are read as comma-separated CSV",
  loadAll: "payloads with loadAll are not supported (one row per virtual user is)",
  cast: "payload values are sent as written; cast is not supported",
  skipEmptyLines: "payload files skip empty lines always",
  tls: "TLS options are not supported by the import",
  engine: "only the http engine is supported",
  engines: "only the http engine is supported",
  ifTrue: "conditional requests depend on captured values; not supported",
  parallel: "parallel requests inside a virtual user are not supported",
  ws: "WebSocket settings: only HTTP is supported",
  socketio: "Socket.IO settings: only HTTP is supported",
  send: "WebSocket steps: only HTTP is supported",
  emit: "Socket.IO steps: only HTTP is supported",
  connect: "WebSocket/Socket.IO steps: only HTTP is supported",
  log: "prints during the run; loadlab has no per-request logging",
  before: "runs a flow once before the load; not supported",
  after: "runs a flow once after the load; not supported",
  cookie: "per-request cookies are not supported (send a cookie header); Set-Cookie is kept per session",
  auth: "basic auth objects are not supported (send an authorization header)",
  form: "form bodies are not supported (use body with a content-type header)",
  formData: "multipart bodies are not supported",
  followRedirect: "redirect options are not supported (loadlab never follows redirects)",
  gzip: "compression options are not supported (send an accept-encoding header)",
  pool: "connection pools are not supported: imported scripts open one connection per virtual user",
  maxSockets: "socket limits are not supported: imported scripts open one connection per virtual user",
};

/** Records one issue per key of `obj` that is not in `allowed`, with the reason when it is known. */
export function rejectUnknownKeys(
  obj: Record<string, unknown>,
  path: string,
  allowed: readonly string[],
  out: Collector,
): void {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const reason = UNSUPPORTED[key] ?? `"${key}" is not supported by loadlab's Artillery import`;
    out.issues.push({ path: join(path, key), message: reason });
  }
}

/** `config` + `phases` -> `config.phases`; a leading dot is dropped for top-level keys. */
export function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

/** A plain object (YAML mapping), not an array or null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SECONDS_PER_UNIT: Record<string, number> = {
  ms: 0.001,
  s: 1,
  sec: 1,
  m: 60,
  min: 60,
  h: 3600,
};

/**
 * Artillery seconds (a number, or a string such as "30", "30s", "2m") as a loadlab duration string
 * ("30s", "1500ms"). Records an issue and returns undefined when the value is not a duration.
 */
export function secondsToDuration(value: unknown, path: string, out: Collector): string | undefined {
  let seconds: number | undefined;
  if (typeof value === "number") seconds = value;
  if (typeof value === "string") {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|m|min|h)?\s*$/.exec(value);
    if (m) seconds = Number(m[1]) * SECONDS_PER_UNIT[m[2] ?? "s"];
  }
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
    out.issues.push({
      path,
      message: `expected seconds (a number such as 30), found ${JSON.stringify(value)}`,
    });
    return undefined;
  }
  const ms = Math.round(seconds * 1000);
  if (ms > MAX_DURATION_MS) {
    // Named here, at the script's key: past it, 1e308 seconds became "Infinityms" at a loadlab key.
    out.issues.push({ path, message: `${value} seconds is too long: ${MAX_DURATION_WORDS}, e.g. 3600` });
    return undefined;
  }
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** A finite number >= 0, or an issue. */
export function nonNegative(value: unknown, path: string, out: Collector): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  out.issues.push({ path, message: `expected a number >= 0, found ${JSON.stringify(value)}` });
  return undefined;
}
