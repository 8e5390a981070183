/**
 * @module
 * Experiment text read by `JSON.parse` with the YAML reader's problems (syntax, duplicate key, depth).
 */
import type { Result } from "./mod.ts";
import { MAX_NESTING_DEPTH } from "./input_limits.ts";
import { visibleLine } from "./terminal_text.ts";

export const TOO_DEEP =
  `lists and mappings in brackets must nest at most ${MAX_NESTING_DEPTH} levels deep: flatten them`;

/** `text` as JSON data, or its first problem, never quoting the input. */
export function parseJsonDocument(text: string): Result<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, issues: [{ path: "(file)", message: `not valid JSON: ${jsonErrorReason(err)}` }] };
  }
  const found = keyOrDepthProblem(text);
  if (found === undefined) return { ok: true, value };
  const message = found.key === undefined ? TOO_DEEP : duplicateKeyMessage(found.key);
  return { ok: false, issues: [{ path: linePosition(text, found.offset), message }] };
}

/** The problem of a key given twice in one mapping (YAML) or object (JSON). */
export function duplicateKeyMessage(key: string): string {
  return `not valid YAML or JSON: the key ${JSON.stringify(key)} must appear once in its mapping; ` +
    "keep one of them";
}

/** Where parsed `text` first nests too deep or repeats a key in one object (`JSON.parse` keeps the last). */
function keyOrDepthProblem(text: string): { key?: string; offset: number } | undefined {
  const open: Array<Set<string> | null> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === OPEN_OBJECT || c === OPEN_LIST) && open.length === MAX_NESTING_DEPTH) return { offset: i };
    if (c === OPEN_OBJECT) open.push(new Set());
    else if (c === OPEN_LIST) open.push(null);
    else if (c === CLOSE_OBJECT || c === CLOSE_LIST) open.pop();
    else if (c === QUOTE) {
      const start = i;
      let escaped = false;
      for (i++; text.charCodeAt(i) !== QUOTE; i++) {
        if (text.charCodeAt(i) === BACKSLASH) {
          escaped = true;
          i++;
        }
      }
      let next = i + 1;
      while (next < text.length && isJsonSpace(text.charCodeAt(next))) next++;
      const keys = open.at(-1);
      if (text.charCodeAt(next) !== COLON || !keys) continue;
      const key = escaped ? JSON.parse(text.slice(start, i + 1)) as string : text.slice(start + 1, i);
      if (keys.has(key)) return { key, offset: start };
      keys.add(key);
    }
  }
  return undefined;
}

/** `line L, column C` (both from 1) of `offset`, as the YAML reader names a place. */
function linePosition(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

const isJsonSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Why a text is not JSON, without V8's excerpt of the input: the input may hold secrets. */
export function jsonErrorReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const reason = visibleLine(message.replace(/,\s*(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, ""));
  // A file of NUL bytes is space allocated and never written (a crash, a full disk), or binary.
  return reason.includes("'\\u0000'") ? `${reason}: a NUL byte, so binary or never fully written` : reason;
}

/** True for a plain mapping: an object that is not null and not a list. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
