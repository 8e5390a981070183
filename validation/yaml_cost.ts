/**
 * @module
 * What in YAML text would cost its parser far more than its size, found from the lexer's tokens.
 */
import type { Lexer } from "yaml";
import type { Issue } from "./mod.ts";
import { MAX_NESTING_DEPTH, MAX_YAML_ANCHORS } from "./input_limits.ts";
import { TOO_DEEP } from "./json_document.ts";

/**
 * The first thing the parser would pay for beyond its size (too many anchors, deep nesting). Block nesting
 * counts open indentation levels plus a line's indicators (`- `, `key:`), so every machine refuses alike.
 */
export function yamlCostIssue(text: string, lexer: typeof Lexer): Issue | undefined {
  let depth = 0;
  let line = 1;
  let indent = 0;
  let onLine = 0;
  const open: number[] = [];
  let anchors = 0;
  let aliases = 0;
  let afterBreak = false;
  for (const token of new lexer().lex(text)) {
    const lineStart = afterBreak;
    afterBreak = false;
    if (token === "[" || token === "{") depth++;
    else if (token === "]" || token === "}") depth--;
    else if (token === "\n" || token === "\r\n") {
      line++;
      indent = 0;
      onLine = 0;
      afterBreak = true;
      continue;
    } else if (lineStart && /^ +$/.test(token)) {
      indent = token.length;
      continue;
    } else if (depth === 0 && (token === "-" || token === "?" || token === ":")) {
      if (onLine++ === 0) {
        while (open.length > 0 && open[open.length - 1] >= indent) open.pop();
        open.push(indent);
      }
    } else if (token[0] === "&") anchors++;
    else if (token[0] === "*") aliases++;
    else continue;
    if (depth > MAX_NESTING_DEPTH) return { path: "(file)", message: TOO_DEEP };
    if (open.length + onLine - 1 > MAX_NESTING_DEPTH) {
      return {
        path: `line ${line}`,
        message: `lists and mappings must nest at most ${MAX_NESTING_DEPTH} levels, by indentation or ` +
          "on one line (- - - ...): flatten them",
      };
    }
    if (anchors > MAX_YAML_ANCHORS || aliases > MAX_YAML_ANCHORS) {
      const what = anchors > MAX_YAML_ANCHORS ? "anchors (&name)" : "aliases (*name)";
      return {
        path: "(file)",
        message:
          `has more than ${MAX_YAML_ANCHORS} ${what}: write the values out, or generate the file as JSON`,
      };
    }
  }
  return undefined;
}
