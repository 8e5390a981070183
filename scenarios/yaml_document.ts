/**
 * @module
 * The reader of experiment files: YAML to plain data, or the one problem that stops it.
 */
import type { Document, LineCounter } from "yaml";
import type { Issue, Result } from "../validation/mod.ts";
import { withEnvSnapshot, YAML_DEBUG_VARIABLES } from "../system/env_snapshot.ts";
import { formatCap } from "../system/read_capped.ts";
import { MAX_EXPERIMENT_FILE_BYTES, MAX_YAML_BYTES } from "../validation/input_limits.ts";
import { duplicateKeyMessage, isRecord, parseJsonDocument } from "../validation/json_document.ts";
import { yamlCostIssue } from "../validation/yaml_cost.ts";
import { yamlPackage } from "../validation/yaml_package.ts";

/** Aliases a document may expand: enough for shared anchors, far below a "billion laughs" file. */
const MAX_YAML_ALIASES = 100;

/** Each document read as YAML by its root value: where its keys are, for an issue that names a key path. */
const read = new WeakMap<object, { doc: Document; lineCounter: LineCounter }>();

/**
 * `path` (`scenarios[0].flow[1].get.url`) of the YAML document whose root is `root`: the line and column of
 * its key (a list's item: the item), else of its nearest parent's; undefined for a document not read as YAML.
 */
export function positionOf(root: unknown, path: string): string | undefined {
  const at = isRecord(root) ? read.get(root) : undefined;
  const keys = (path.match(/[^.[\]]+/g) ?? []).map((k) => /^\d+$/.test(k) ? Number(k) : k);
  for (let n = keys.length; at && n > 0; n--) {
    const items = (at.doc.getIn(keys.slice(0, n - 1), true) as { items?: Positioned[] } | undefined)?.items;
    const key = keys[n - 1];
    const node = typeof key === "number" ? items?.[key] : items?.find((pair) => pair.key?.value === key)?.key;
    if (node?.range === undefined) continue;
    const { line, col } = at.lineCounter.linePos(node.range[0]);
    return `line ${line}, column ${col}`;
  }
  return undefined;
}
type Positioned = { range?: [number, number, number]; key?: Positioned; value?: unknown };

/** Reads YAML (JSON is YAML too); a syntax error names its line and column. */
export async function parseDocument(text: string): Promise<Result<unknown>> {
  // Each character is at least a byte, so text over the cap in characters is over it in bytes.
  if (text.length > MAX_YAML_BYTES) return largeDocument(text);
  if (text.includes("\r") && !text.includes("\n")) {
    return fileProblem("its lines end in a lone CR: use LF or CRLF");
  }
  // Valid JSON without a merge key reads as YAML reads it, without the YAML package (a script's run).
  const json = /^\s*[[{]/.test(text) && !text.includes("<<") ? parseJsonDocument(text) : undefined;
  if (json?.ok) return shaped(json);
  const unread = unreadSyntax(text);
  if (unread !== undefined) return { ok: false, issues: [unread] };
  const yaml = await yamlPackage();
  const costly = yamlCostIssue(text, yaml.Lexer);
  if (costly !== undefined) return { ok: false, issues: [costly] };
  // The parser's unique-key check is quadratic; `duplicateKey` uses a set per map.
  const lineCounter = new yaml.LineCounter();
  // YAML 1.1 merge keys (`<<: *base`), which Artillery scripts and hand-written files use to share fields.
  const doc = withEnvSnapshot(
    YAML_DEBUG_VARIABLES,
    () =>
      yaml.parseDocument(text, {
        prettyErrors: true,
        uniqueKeys: false,
        lineCounter,
        merge: true,
        logLevel: "error",
      }),
  );
  const syntax = syntaxIssue(doc) ?? duplicateKey(doc, lineCounter, yaml);
  if (syntax !== undefined) return { ok: false, issues: [syntax] };
  const expanded = expandAliases(doc);
  if (expanded.ok && isRecord(expanded.value)) read.set(expanded.value, { doc, lineCounter });
  return expanded.ok ? shaped(expanded) : expanded;
}

/** `parsed` unless its shape is no experiment file's. */
function shaped(parsed: Result<unknown> & { ok: true }): Result<unknown> {
  const shape = shapeIssue(parsed.value);
  return shape === undefined ? parsed : { ok: false, issues: [shape] };
}

/** The one problem of the file as a whole. */
const fileProblem = (message: string): Result<never> => ({
  ok: false,
  issues: [{ path: "(file)", message }],
});

/** A file too large for the YAML parser, read as JSON; its shape checked as a YAML file's is. */
function largeDocument(text: string): Result<unknown> {
  if (!/^\s*[[{]/.test(text)) {
    const jsonCap = formatCap(MAX_EXPERIMENT_FILE_BYTES);
    return fileProblem(
      `over the ${formatCap(MAX_YAML_BYTES)} read as YAML (its parser takes up to 200 bytes of memory per ` +
        `byte): write it as JSON (read up to ${jsonCap}) or split it into smaller experiments`,
    );
  }
  const parsed = parseJsonDocument(text);
  if (parsed.ok) return shaped(parsed);
  const why = ` (a file over ${formatCap(MAX_YAML_BYTES)} is read as JSON only)`;
  const issues = parsed.issues.map((i) =>
    i.message.startsWith("not valid JSON") ? { ...i, message: i.message + why } : i
  );
  return { ok: false, issues };
}

/** The first syntax error of `doc`, else the first tag it could not resolve (`!custom`); else undefined. */
function syntaxIssue(doc: Document): Issue | undefined {
  const [e, tag] = [doc.errors[0], doc.warnings[0]];
  const at = (e ?? tag)?.linePos?.[0];
  const path = at ? `line ${at.line}, column ${at.col}` : "(file)";
  if (e) return { path, message: `not valid YAML or JSON: ${syntaxText(e.message)}` };
  return tag &&
    { path, message: `${syntaxText(tag.message)}: drop the tag (an experiment file is plain data)` };
}

/** The parser's message without the position the issue's path already gives. */
function syntaxText(message: string): string {
  const text = message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
  if (text.startsWith("Source contains multiple documents")) {
    return "a second document (after ---): give one experiment per file";
  }
  if (/^Maximum call stack size exceeded/.test(text)) {
    return "nested too deep to read: lists and mappings must nest fewer levels; flatten it";
  }
  return text;
}

/** `doc` as plain data, its aliases expanded at most `MAX_YAML_ALIASES` times. */
function expandAliases(doc: Document): Result<unknown> {
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (err) {
    const text = (err as Error).message ?? "";
    const alias = /^Unresolved alias[^:]*: \*?(.+)/.exec(text)?.[1];
    return fileProblem(
      alias !== undefined
        ? `the alias *${alias} has no anchor &${alias} before it: set the anchor first, or write the value`
        : /^Merge sources/.test(text)
        ? "a merge key (<<) takes a mapping or a list of mappings, e.g. <<: *base: write the fields out"
        : /Excessive alias count/.test(text)
        ? `its aliases (*name) expand more than ${MAX_YAML_ALIASES} times: write the values out instead of ` +
          "nesting aliases"
        : `not valid YAML: ${text.split("\n")[0]}`,
    );
  }
}

/** What a JSON or shell habit leaves that YAML reads as something else (`//` comments, `${NAME}`). */
function unreadSyntax(text: string): Issue | undefined {
  // In a file written as JSON (flow style) no line is a block scalar, so `//` there starts a comment.
  const flow = /^\uFEFF?\s*[[{/]/.test(text);
  for (const [i, line] of text.split("\n").entries()) {
    const comment = flow ? /(\/\/|\/\*)/.exec(line.replace(/"(?:[^"\\]|\\.)*"/g, '""'))?.[1] : undefined;
    const name = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(line.replace(/(^|\s)#.*/, ""))?.[1];
    const message = comment
      ? `${comment} starts no comment in JSON or YAML: drop it (a YAML comment starts with #)`
      : name && `\${${name}} is not expanded: experiment files read no environment variables; write the ` +
          `value, or give it on the command line: --set PATH="$${name}"`;
    if (message) return { path: `line ${i + 1}`, message };
  }
  return undefined;
}

/** What makes parsed data no experiment file: `__proto__`, a self-containing alias, no root mapping. */
function shapeIssue(value: unknown): Issue | undefined {
  const found = reservedOrCycle(value, "", new Set());
  const message = found?.cycle
    ? "an alias (*name) refers to its own anchor, so the value would contain itself: write it out"
    : found
    ? "__proto__ is a reserved word, not a name: rename it, e.g. app"
    : isRecord(value)
    ? undefined
    : "an experiment file is a mapping of keys (name:, targets:, loads:, ...)";
  return message && { path: found?.path ?? "(root)", message };
}

/** The first key given twice in one mapping, at its line and column; linear in the number of keys. */
function duplicateKey(
  doc: Document,
  lineCounter: LineCounter,
  yaml: typeof import("yaml"),
): Issue | undefined {
  const { isScalar, visit } = yaml;
  let found: { key: string; offset: number } | undefined;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (seen.has(key)) {
          const node = pair.key as { range?: [number, number, number] } | null;
          found = { key, offset: node?.range?.[0] ?? 0 };
          return visit.BREAK;
        }
        seen.add(key);
      }
    },
  });
  if (found === undefined) return undefined;
  const at = lineCounter.linePos(found.offset);
  return { path: `line ${at.line}, column ${at.col}`, message: duplicateKeyMessage(found.key) };
}

/** Path of the first `__proto__` key or first value that is its own ancestor (an alias in its anchor). */
function reservedOrCycle(
  value: unknown,
  at: string,
  ancestors: Set<object>,
): { path: string; cycle: boolean } | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (ancestors.has(value)) return { path: at, cycle: true };
  ancestors.add(value);
  const entries: Array<[string, string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [`${i}`, `${at}[${i}]`, v])
    : Object.entries(value).map(([key, v]) => [key, at ? `${at}.${key}` : key, v]);
  for (const [key, here, child] of entries) {
    if (key === "__proto__" && !Array.isArray(value)) return { path: here, cycle: false };
    const found = reservedOrCycle(child, here, ancestors);
    if (found !== undefined) return found;
  }
  ancestors.delete(value);
  return undefined;
}
