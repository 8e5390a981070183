/**
 * @module
 * What in YAML text would cost its parser far more than its size, found from the lexer's tokens first.
 */
import { Lexer } from "yaml";
import type { Issue } from "./mod.ts";
import { MAX_NESTING_DEPTH, MAX_YAML_ANCHORS } from "./input_limits.ts";
import { TOO_DEEP } from "./json_document.ts";

/** The first thing in the tokens the parser would pay for beyond its size: too many anchors, deep nesting. */
export function yamlCostIssue(text: string): Issue | undefined {
  let depth = 0;
  let onLine = 0;
  let anchors = 0;
  let aliases = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === "[" || token === "{") depth++;
    else if (token === "]" || token === "}") depth--;
    else if (token === "\n" || token === "\r\n") onLine = 0;
    else if (depth === 0 && (token === "-" || token === "?" || token === ":")) onLine++;
    else if (token[0] === "&") anchors++;
    else if (token[0] === "*") aliases++;
    else continue;
    if (depth > MAX_NESTING_DEPTH) return { path: "(file)", message: TOO_DEEP };
    if (onLine > MAX_NESTING_DEPTH) {
      return {
        path: "(file)",
        message: `a line must nest at most ${MAX_NESTING_DEPTH} lists or mappings (- - - ...): flatten it`,
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
