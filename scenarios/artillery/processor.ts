/**
 * @module
 * `config.processor`: the scenarios with JavaScript hooks become a session script that loads the processor
 * unchanged (runner/script/artillery/runtime.ts); a module it requires that is not there is named before
 * the load.
 */
import { builtinModules, createRequire } from "node:module";
import { basename, join, resolve } from "node:path";
import { type Collector, problem } from "./common.ts";
import { hooksModule, type HooksPlan } from "../../runner/script/artillery/runtime.ts";
import { cachePathOf, writeWhole } from "../../runner/script/cache_dir.ts";

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
  if (/\.emit\(\s*["'`](counter|histogram|rate|summary|customStat)/.test(text)) {
    out.warnings.push("config.processor: its ee.emit metrics are not counted in loadlab's results");
  }
  return { file, text };
}

const list = (v: unknown) => [v ?? []].flat().map(String);

/** The session script running `flows` with the processor's hooks (each flow's `scenario` names them). */
export function hooksScript(plan: Omit<HooksPlan, "flows">, flows: Array<Record<string, any>>) {
  const all: HooksPlan = {
    ...plan,
    flows: flows.map(({ weight, steps, scenario: s = {} }) => ({
      weight,
      steps,
      before: list(s.beforeScenario),
      after: list(s.afterScenario),
      hooks: { beforeRequest: list(s.beforeRequest), afterResponse: list(s.afterResponse) },
    })),
  };
  const code = hooksModule(all);
  // Named as the processor, so a load error names the file its user knows.
  const name = basename(plan.processor ?? "artillery.js").replace(/\.[cm]?js$/, "") + ".js";
  const path = join(cachePathOf("artillery", code), name);
  writeWhole(path, code);
  return path;
}
