/**
 * @module
 * A flow step's captures and checks, compiled once per worker; a check's text may hold `{{ name }}`.
 */
import type { CaptureSpec, CheckSpec } from "../session_schema.ts";
import type { StepResponse } from "../http/kept_response.ts";
import { hasPlaceholder, textParts } from "../http/template.ts";
import { parseJsonPath, type PathStep } from "../json_path.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function at(value: unknown, steps: readonly PathStep[]): unknown {
  let v = value;
  for (const s of steps) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

/** The body parsed as JSON once per response; undefined when it is not JSON. */
class JsonBody {
  #parsed = false;
  #value: unknown = undefined;
  constructor(readonly response: StepResponse) {}
  get value(): unknown {
    if (!this.#parsed) {
      this.#parsed = true;
      try {
        this.#value = JSON.parse(this.response.body);
      } catch {
        this.#value = undefined;
      }
    }
    return this.#value;
  }
}

interface Capture {
  spec: CaptureSpec;
  path: PathStep[];
  regexp: RegExp | null;
  /** Index in the session's values. */
  index: number;
}

interface Check {
  spec: CheckSpec;
  path: PathStep[];
  regexp: RegExp | null;
  /** As results name it, e.g. `status 200`, `$.ok == true`. */
  name: string;
  /** The compared text (`contains`, a string `equals`) as literals and value indexes, if templated. */
  text: Array<string | number> | null;
}

/** The text a check compares, or undefined (a status, `exists`, a non-string `equals`). */
function checkText(c: CheckSpec): string | undefined {
  if (c.contains !== undefined) return c.contains;
  return typeof c.equals === "string" ? c.equals : undefined;
}

/** Literal parts and value indexes (template.ts `textParts`) with the session's `values` filled in. */
export function filledText(parts: ReadonlyArray<string | number>, values: ReadonlyArray<Uint8Array>): string {
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") text += part;
    else if (values[part] !== undefined) text += decoder.decode(values[part]);
  }
  return text;
}

export type StepExtract = ReturnType<typeof compileExtract>;

export function checkName(c: CheckSpec): string {
  if (c.status !== undefined) return `status ${[c.status].flat().join(" or ")}`;
  // One test a check (session_schema.ts): of a header, of the body (contains, regexp), else of a JSON path.
  const ofBody = (c.contains ?? c.regexp) !== undefined;
  const subject = c.header !== undefined ? `header ${c.header} ` : ofBody ? "" : `${c.json} `;
  const test = c.exists !== undefined
    ? (c.exists ? "exists" : "absent")
    : c.regexp !== undefined
    ? `matches /${c.regexp}/`
    : c.contains !== undefined
    ? `contains ${JSON.stringify(c.contains)}`
    : `== ${JSON.stringify(c.equals)}`;
  return subject + test;
}

/** Compiles a step's captures (names mapped to value indexes by `indexOf`) and checks. */
export function compileExtract(
  captures: readonly CaptureSpec[],
  checks: readonly CheckSpec[],
  indexOf: (name: string) => number,
) {
  const compiledCaptures = captures.map((spec): Capture => ({
    spec,
    path: spec.json === undefined ? [] : parseJsonPath(spec.json),
    regexp: spec.regexp === undefined ? null : new RegExp(spec.regexp),
    index: indexOf(spec.as),
  }));
  const compiledChecks = checks.map((spec) => compileCheck(spec, indexOf));
  const needsBody = captures.some((c) => c.header === undefined) ||
    checks.some((c) => c.status === undefined && c.header === undefined);
  return { captures: compiledCaptures, checks: compiledChecks, needsBody };
}

/** One check (or a ws step's match) ready to run; `indexOf` maps a placeholder's name to its value index. */
export function compileCheck(spec: CheckSpec, indexOf: (name: string) => number): Check {
  const text = checkText(spec);
  return {
    spec,
    path: spec.json === undefined ? [] : parseJsonPath(spec.json),
    regexp: spec.regexp === undefined ? null : new RegExp(spec.regexp),
    name: checkName(spec),
    text: text !== undefined && hasPlaceholder(text) ? textParts(text, indexOf) : null,
  };
}

function captured(c: Capture, response: StepResponse, json: JsonBody): string | undefined {
  if (c.spec.header !== undefined) return response.headers(c.spec.header)[0];
  if (c.regexp !== null) {
    const m = c.regexp.exec(response.body);
    if (m === null) return undefined;
    return m[c.spec.group ?? (m.length > 1 ? 1 : 0)];
  }
  const v = at(json.value, c.path);
  if (v === undefined) return undefined;
  return typeof v === "string" ? v : JSON.stringify(v);
}

function passes(
  c: Check,
  response: StepResponse,
  json: JsonBody,
  values: ReadonlyArray<Uint8Array>,
): boolean {
  const spec = c.spec;
  if (spec.status !== undefined) return [spec.status].flat().includes(response.status);
  const text = c.text === null ? checkText(spec) : filledText(c.text, values);
  if (spec.header !== undefined) {
    const found = response.headers(spec.header).join(", ");
    if (spec.exists !== undefined) return (found !== "") === spec.exists;
    return found !== "" &&
      (c.regexp?.test(found) ?? (spec.contains !== undefined ? found.includes(text!) : found === text));
  }
  if (spec.contains !== undefined) return response.body.includes(text!);
  if (c.regexp !== null) return c.regexp.test(response.body);
  // Only a ws step's match may name no rule: any message is the one it waits for.
  if (spec.json === undefined) return true;
  const v = at(json.value, c.path);
  if (spec.exists !== undefined) return (v !== undefined) === spec.exists;
  return v === (typeof spec.equals === "string" ? text : spec.equals);
}

/** Whether `response` passes `check`: how a ws step picks its message (no rule: any message). */
export function checkPasses(
  check: Check,
  response: StepResponse,
  values: ReadonlyArray<Uint8Array>,
): boolean {
  return passes(check, response, new JsonBody(response), values);
}

/** The most a session's captures keep together, bytes: no filled body is sent past 16 MiB anyway. */
const SESSION_CAPTURE_BYTES = 16 * 1024 * 1024;

/** What a session's captures keep in all (a new record per session). */
export interface CapturedBytes {
  bytes: number;
}

/** Why a step's captures stopped: one found nothing, or would take the session past its bytes. */
type ExtractMiss = { kind: "missed"; as: string } | { kind: "too-big"; message: string };

/** Runs checks then captures; returns the first capture that found nothing or passes the bytes, else null. */
export function runExtract(
  extract: StepExtract,
  response: StepResponse,
  values: Uint8Array[],
  counters: { passed: Uint32Array; failed: Uint32Array },
  kept: CapturedBytes,
): ExtractMiss | null {
  const json = new JsonBody(response);
  extract.checks.forEach((c, k) => {
    if (passes(c, response, json, values)) counters.passed[k]++;
    else counters.failed[k]++;
  });
  for (const c of extract.captures) {
    const value = captured(c, response, json);
    const found = c.spec.json === undefined ? value : at(json.value, c.path);
    if (value === undefined || c.spec.equals !== undefined && found !== c.spec.equals) {
      return { kind: "missed", as: c.spec.as };
    }
    const bytes = encoder.encode(value);
    // A capture of a name again replaces its value (a data column's, never counted, counts as none).
    const total = Math.max(0, kept.bytes - (values[c.index]?.length ?? 0)) + bytes.length;
    if (total > SESSION_CAPTURE_BYTES) {
      const message = `capture "${c.spec.as}" would keep the session's captures at ${total} bytes, past ` +
        `the ${SESSION_CAPTURE_BYTES} a session keeps: capture a part (a regexp's group, a JSON field)`;
      return { kind: "too-big", message };
    }
    kept.bytes = total;
    values[c.index] = bytes;
  }
  return null;
}
