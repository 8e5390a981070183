/**
 * @module
 * `config.processor`: the scenarios with JavaScript hooks become a session script that loads the processor
 * unchanged (runner/script/artillery/runtime.ts); a missing module it requires is named before the load.
 */
import { builtinModules, createRequire } from "node:module";
import { resolve } from "node:path";
import { type Collector, problem } from "./common.ts";

/** The processor file's text, its required modules checked; undefined (and an issue) when unusable. */
export function readProcessor(processor: unknown, dir: string, out: Collector) {
  if (typeof processor !== "string") {
    return problem(out, "config.processor", "expected a file such as ./hooks.js");
  }
  const file = resolve(dir, processor);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (err) {
    return problem(out, "config.processor", `${file} cannot be read: ${(err as Error).message}`);
  }
  try {
    // Compiled as Node wraps a CommonJS module, not run: a syntax error is named before the load. An ES
    // module (.mjs) is compiled as it is imported, by the load.
    if (!file.endsWith(".mjs")) new Function("exports", "require", "module", "__filename", "__dirname", text);
  } catch (err) {
    return problem(out, "config.processor", `${file} does not compile: ${(err as Error).message}`);
  }
  const need = createRequire(file);
  for (const [, name] of text.matchAll(/\b(?:require\(|from|import\()\s*["'`]([^"'`.][^"'`]*)["'`]/g)) {
    if (builtinModules.includes(name.replace(/^node:/, ""))) continue;
    try {
      need.resolve(name);
    } catch {
      const why = `requires ${name}, not found from ${file}: install it there, or drop it`;
      problem(out, "config.processor", why);
    }
  }
  return { file, text };
}
