/**
 * @module
 * What in YAML text would cost its parser far more than its size, found from the lexer's tokens before
 * it parses (the experiment reader, scenarios/yaml_document.ts, and redaction's read of an experiment kept
 * in results, results/source_data.ts, both ask): lists nested past `MAX_NESTING_DEPTH` in brackets or on
 * one line, more than `MAX_YAML_ANCHORS` anchors or aliases. Pure: text in, a problem out.
 */
import { Lexer } from "yaml";
import type { Issue } from "./mod.ts";
import { MAX_NESTING_DEPTH, MAX_YAML_ANCHORS } from "./input_limits.ts";
import { TOO_DEEP } from "./json_document.ts";

/**
 * The first thing in `text`'s tokens that the parser would pay for beyond its size: anchors or aliases
 * past `MAX_YAML_ANCHORS` each, brackets nested past `MAX_NESTING_DEPTH`, or as many block indicators on
 * one line (`- - - 1` nests a list per two bytes: 1 MiB of it peaked at 456 MB before the parser's stack
 * gave out). The lexer streams its tokens and holds none, so this costs a fraction of the parse; a quoted
 * or block scalar is one token, so a `[` or `*` inside one is not counted.
 */
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
