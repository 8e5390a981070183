/**
 * @module
 * A k6 script and its local modules, each resolved against its importer's folder as k6 does, dependencies
 * first so each converts knowing which imports became async; a missing one or a cycle is refused.
 */
import * as acorn from "acorn";
import { basename, dirname, relative, resolve } from "node:path";
import { asModule, convertK6, K6ConvertError, type K6ModuleContext } from "./convert.ts";
import type { Node } from "./async.ts";
import { defersCallbacks, importsMetrics } from "./context.ts";
import { keepsVuState, parseOrNull } from "./refusals.ts";

/** One file of a script: its absolute path, text, name in problems and local imports (specifier -> path). */
type K6File = { path: string; source: string; name: string; imports: Map<string, string>; ast: Node | null };

/** Most local modules one script may import: a generated tree of thousands is refused, not read forever. */
const MAX_MODULES = 256;

/** Whether an import specifier names a local file (k6 resolves these against the importing file). */
const isLocal = (specifier: string) => /^\.{1,2}\//.test(specifier) || specifier.startsWith("/");

export function readK6Files(path: string): K6File[] {
  const root = dirname(path);
  const done = new Map<string, K6File>(), order: K6File[] = [], reading: string[] = [];
  const visit = (file: string, text: string) => {
    const name = file === path ? basename(path) : relative(root, file);
    const source = asModule(text, name);
    const ast = parseOrNull(source);
    const entry: K6File = { path: file, source, name, imports: new Map(), ast };
    reading.push(file);
    for (const s of ast?.body ?? []) {
      const specifier = s.source ? String(s.source.value) : null;
      if (specifier === null || !isLocal(specifier)) continue;
      const target = resolve(dirname(file), specifier);
      const at = `${entry.name}:${acorn.getLineInfo(source, s.start).line}`;
      if (reading.includes(target)) {
        throw new K6ConvertError([`${at}: ${specifier} imports back into a module importing it (a cycle)`]);
      }
      entry.imports.set(specifier, target);
      if (done.has(target)) continue;
      if (done.size >= MAX_MODULES) {
        throw new K6ConvertError([`${at}: more than ${MAX_MODULES} local modules`]);
      }
      let text: string;
      try {
        text = Deno.readTextFileSync(target);
      } catch (err) {
        const why = err instanceof Deno.errors.NotFound
          ? "no such file"
          : err instanceof Deno.errors.IsADirectory
          ? `a folder, not a module: import a file in it (${specifier.replace(/\/$/, "")}/index.js, say)`
          : String(err);
        throw new K6ConvertError([`${at}: ${specifier}: ${why} (${target})`]);
      }
      visit(target, text);
    }
    reading.pop();
    done.set(file, entry);
    order.push(entry);
  };
  visit(path, Deno.readTextFileSync(path));
  return order;
}

export function convertK6Files(files: K6File[]): Map<string, string> {
  const script = files[files.length - 1];
  const asts = files.map((f) => f.ast).filter((a) => a !== null);
  const [metrics, stores, vuState] = [importsMetrics, defersCallbacks, keepsVuState].map((f) => asts.some(f));
  const facts = { metrics, stores, vuState };
  // What importers hand each module's exports (by path, `name index`): converted again once one is new.
  const handed = new Map<string, Set<string>>();
  for (let round = 0;; round++) {
    const made = new Map<string, ReadonlySet<string>>(),
      out = new Map<string, string>(),
      problems: string[] = [];
    let grew = false;
    for (const file of files) {
      const locals = new Map<string, ReadonlySet<string>>(
        [...file.imports].map(([spec, target]) => [spec, made.get(target) ?? new Set<string>()]),
      );
      const wanted = [...handed.get(file.path) ?? []].map((k) => k.split(" "))
        .map(([name, index]) => ({ name, index: Number(index) }));
      const handing: NonNullable<K6ModuleContext["handing"]> = [];
      const context: K6ModuleContext = { locals, library: file !== script, facts, handed: wanted, handing };
      try {
        const { code, asyncExports } = convertK6(file.source, file.name, dirname(file.path), false, context);
        made.set(file.path, asyncExports);
        out.set(file.path, code);
      } catch (err) {
        if (!(err instanceof K6ConvertError)) throw err;
        problems.push(...err.problems);
        made.set(file.path, new Set());
      }
      for (const h of handing) {
        const target = file.imports.get(h.module)!, keys = handed.get(target) ?? new Set();
        if (!keys.has(`${h.name} ${h.index}`)) {
          handed.set(target, keys.add(`${h.name} ${h.index}`)), grew = true;
        }
      }
    }
    // Each new round awaits at least one more parameter: bounded by the modules' exports and arguments.
    if (grew && round < MAX_MODULES) continue;
    if (problems.length > 0) throw new K6ConvertError(problems);
    return out;
  }
}
