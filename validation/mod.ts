/**
 * @module
 * The zod-issue formatter: `{path, message}` saying what was expected and found; "did you mean".
 */
import type { z } from "zod";
import { allowedKeysAt, describeAll, EXPECTED_WORDS, oneOf, schemasAt } from "./schema_walk.ts";
import { nearest } from "./suggest.ts";
import { numberSpelling, quotedVisible } from "./terminal_text.ts";

/** Where (`loads.burst.phases[1].rampTo`, `(root)` for the whole value) and what. */
export interface Issue {
  path: string;
  message: string;
}

/** A value, or every problem found. */
export type Result<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** A problem before the edge formats its path: the keys down to the field to change, and what to do. */
export type PathIssue = { path: Array<string | number>; message: string };

/** An empty list of issues and the function that adds one: `const [issues, add] = issueList();`. */
export function issueList<P = PathIssue["path"]>(): [
  { path: P; message: string }[],
  (path: P, message: string) => void,
] {
  const issues: { path: P; message: string }[] = [];
  return [issues, (path, message) => void issues.push({ path, message })];
}

/** Each item whose `key` an earlier item has: `[earlier, index]`, in the items' order. */
export function repeatsOf<T>(items: readonly T[], key: (item: T) => string): Array<[number, number]> {
  const first = new Map<string, number>();
  const repeats: Array<[number, number]> = [];
  items.forEach((item, index) => {
    const earlier = first.get(key(item));
    if (earlier === undefined) first.set(key(item), index);
    else repeats.push([earlier, index]);
  });
  return repeats;
}

type Schema = z.core.$ZodType;
type RawIssue = z.core.$ZodIssue;
type Key = PropertyKey;

/** Parses with `reportInput`, so messages can name offending values. */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; data: z.output<S> } | { ok: false; issues: Issue[]; error: z.ZodError } {
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, issues: issuesOf(parsed.error, schema), error: parsed.error };
}

/** Every issue as `{path, message}`; `schema` (the one parsed) sharpens wording and "did you mean". */
export function issuesOf(error: z.ZodError, schema?: z.ZodType): Issue[] {
  // One problem a value: a second check failing on it (a whole number past its range too) says nothing new.
  const all = error.issues.flatMap((issue) => convert(issue, [], schema));
  return all.filter((issue, i) =>
    issue.path === "(root)" || all.findIndex((o) => o.path === issue.path) === i
  );
}

/** A refinement's problem: `message` at `path` under the value refined (the value itself when empty). */
export function customIssue(ctx: z.RefinementCtx, path: PropertyKey[], message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

/** `["loads", "burst", "phases", 1, "rampTo"]` -> `loads.burst.phases[1].rampTo`; odd keys quoted. */
export function formatPath(path: readonly Key[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][\w$-]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${quotedVisible(String(key))}]`;
  }
  return out || "(root)";
}

/**
 * The user's path of a formatted one by its longest prefix in `table` (formatted path -> the user's path,
 * `mirrors`: the keys below are the user's own); `exact` when the tail maps too.
 */
export function nearestOrigin(
  table: ReadonlyMap<string, { at: string; mirrors: boolean; hole?: string }>,
  path: string,
) {
  let best: string | undefined;
  for (const key of table.keys()) {
    if (holds(key, path) && (best === undefined || key.length > best.length)) best = key;
  }
  if (best === undefined) return undefined;
  const { at, mirrors, hole } = table.get(best)!;
  const exact = mirrors || best === path;
  return { path: exact ? at + path.slice(best.length) : at, hole, exact };
}

/** Whether `path` is `other` or holds it (`config.phases[0]` holds `config.phases[0].rate`). */
export function holds(path: string, other: string): boolean {
  return other === path || (other.startsWith(path) && /^[.[]/.test(other.slice(path.length)));
}

function convert(issue: RawIssue, prefix: Key[], schema?: Schema): Issue[] {
  const path = [...prefix, ...issue.path];
  const at = (message: string, where: Key[] = path) => [{ path: formatPath(where), message }];
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => ({
        path: formatPath([...path, key]),
        message: unknownKey(key, schema ? allowedKeysAt(schema, path, inputOf(issue)) : []),
      }));
    case "invalid_type":
      return at(typeMessage(issue, path, schema));
    case "invalid_value":
      return at(choiceMessage(issue.values, issue));
    case "invalid_union":
      return unionIssues(issue, path, schema);
    case "too_small":
    case "too_big":
      return at(withFound(boundMessage(issue), issue));
    case "custom":
      // A refinement's own words say what is wrong; its input is often the whole object.
      return at(issue.message);
    default:
      return at(withFound(issue.message, issue));
  }
}

function unknownKey(key: string, allowed: string[]): string {
  const guess = nearest(key, allowed);
  if (guess) return `unknown key; did you mean "${guess}"?`;
  if (allowed.length === 0) return "unknown key";
  const more = allowed.length > 12 ? `, ... (loadlab schema lists all ${allowed.length})` : "";
  return `unknown key; allowed: ${allowed.slice(0, 12).join(", ")}${more}`;
}

function typeMessage(issue: z.core.$ZodIssueInvalidType, path: Key[], schema?: Schema): string {
  const described = schema ? describeAll(schemasAt(schema, path)) : undefined;
  const expected = described ?? EXPECTED_WORDS[issue.expected] ?? `a ${issue.expected}`;
  return expectedFound(expected, issue);
}

function expectedFound(expected: string, issue: RawIssue): string {
  const found = foundOf(issue);
  if (found === MISSING) return `missing; expected ${expected}`;
  return found === undefined ? `expected ${expected}` : `expected ${expected}, found ${found}`;
}

/** The choices of an enum, literal or discriminator, and the nearest to a mistyped string. */
function choiceMessage(choices: readonly unknown[], issue: RawIssue): string {
  const message = expectedFound(oneOf(choices), issue);
  const written = inputOf(issue);
  if (typeof written !== "string") return message;
  const guess = nearest(written, choices.filter((c): c is string => typeof c === "string"));
  return guess ? `${message}; did you mean "${guess}"?` : message;
}

function withFound(message: string, issue: RawIssue): string {
  const found = foundOf(issue);
  return found === undefined || found === MISSING ? message : `${message} (found ${found})`;
}

const MISSING = "\u0000missing";

/** How the value reads in a message; MISSING for undefined; `undefined` when unknown. */
function foundOf(issue: RawIssue): string | undefined {
  if ("input" in issue) return showValue(issue.input);
  const received = /received (\w+)$/.exec(issue.message)?.[1];
  if (issue.code !== "invalid_type" || !received) return undefined;
  return received === "undefined" ? MISSING : `${/^[aeiou]/.test(received) ? "an" : "a"} ${received}`;
}

/** A value as a problem shows it: text quoted (cut at 40), a number, or its kind ("a list of 3"). */
export function showValue(value: unknown): string {
  if (value === undefined) return MISSING;
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") {
    const note = numberSpelling(value);
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value) + (note && ` (${note})`);
  }
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value instanceof Uint8Array) return "bytes";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Zod's "Too small: expected number to be >=3" becomes "must be >= 3"; custom text stays. */
function boundMessage(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  if (!/^Too (small|big)/.test(issue.message)) return issue.message;
  const small = issue.code === "too_small";
  const limit = Number(small ? issue.minimum : issue.maximum);
  const op = small ? (issue.inclusive ? ">=" : ">") : (issue.inclusive ? "<=" : "<");
  if (issue.origin === "array" || issue.origin === "set") {
    const n = small ? (issue.inclusive ? limit : limit + 1) : (issue.inclusive ? limit : limit - 1);
    return `needs ${small ? "at least" : "at most"} ${n} item${n === 1 ? "" : "s"}`;
  }
  if (issue.origin === "string") return `length must be ${op} ${limit}`;
  return `must be ${op} ${limit}`;
}

/** The closest union member's issues speak (deepest, then fewest), so a typo is reported at its field. */
function unionIssues(issue: z.core.$ZodIssueInvalidUnion, path: Key[], schema?: Schema): Issue[] {
  const at = (message: string) => [{ path: formatPath(path), message }];
  const { options, discriminator } = issue as { options?: unknown[]; discriminator?: string };
  if (issue.errors.length === 0 && options) {
    // zod reports the whole object; the user wrote (or left out) just its discriminator.
    const object = inputOf(issue);
    const found = discriminator && object !== null && typeof object === "object"
      ? { ...issue, input: (object as Record<string, unknown>)[discriminator] }
      : issue;
    return at(choiceMessage(options, found));
  }
  const deepest = (errs: RawIssue[]) => Math.max(...errs.map((e) => e.path.length));
  const best = [...issue.errors].sort((a, b) => deepest(b) - deepest(a) || a.length - b.length)[0];
  if (best && deepest(best) > 0) return best.flatMap((inner) => convert(inner, path, schema));
  const described = schema ? describeAll(schemasAt(schema, path)) : undefined;
  const expected = described ??
    issue.errors.map((errs) => EXPECTED_WORDS[(errs[0] as { expected?: string })?.expected ?? ""])
      .filter(Boolean).join(" or ");
  const source = "input" in issue ? issue : issue.errors[0]?.[0] ?? issue;
  return at(expected ? expectedFound(expected, source) : withFound(issue.message, source));
}

function inputOf(issue: RawIssue): unknown {
  return "input" in issue ? issue.input : undefined;
}
