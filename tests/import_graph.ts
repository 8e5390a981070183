/**
 * @module
 * The product's import graph as Deno itself resolves it: `deno info --json` run once from each entry
 * point, so every kind of import counts exactly as the runtime loads it (static, type-only, dynamic,
 * multi-line with comments in it). The entry points are main.ts, every module the product starts by URL
 * (`new URL("./x.ts", import.meta.url)` or `import.meta.resolve("./x.ts")`: the worker isolate, the target
 * child process) and every script
 * run on its own (`import.meta.main`, the asset build scripts); `productFiles` lets the test check that
 * they reach every product file, so none escapes the rules. npm packages are not resolved (`--no-npm`):
 * libraries are not layers, and the test needs no registry.
 */
import { codeText } from "./code_text.ts";
import type { Graph } from "./import_rules.ts";

/** Top-level folders that are not the product (tests, benchmarks, example apps, build output). */
const NOT_PRODUCT = ["tests", "bench", "examples", "node_modules", "dist", "out"];

/** Relative paths (from `root`) of the product's .ts files: all but tests and the folders above. */
export async function productFiles(root: URL): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(new URL(dir, root))) {
      const path = dir + entry.name;
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory) {
        if (!NOT_PRODUCT.includes(path)) await walk(path + "/");
      } else if (entry.isFile && path.endsWith(".ts") && !path.endsWith("_test.ts")) {
        out.push(path);
      }
    }
  }
  await walk("");
  return out.sort();
}

/** `new URL("./x.ts", import.meta.url)` or `import.meta.resolve("./x.ts")`: a module the product starts. */
const STARTED_BY_URL =
  /\bnew\s+URL\(\s*(["'`])([^"'`$]+\.ts)\1\s*,\s*import\.meta\.url\s*\)|\bimport\.meta\.resolve\(\s*(["'`])([^"'`$]+\.ts)\3\s*\)/g;

/**
 * The entry points among `files` (read from `root`): main.ts, the modules a file starts by URL and the
 * scripts with an `import.meta.main` block. Comments do not count (a module comment that shows the pattern
 * is not a start).
 */
export async function entryPoints(root: URL, files: string[]): Promise<string[]> {
  const entries = new Set<string>(files.filter((f) => f === "main.ts"));
  for (const file of files) {
    const code = codeText(await Deno.readTextFile(new URL(file, root)), { strings: true });
    for (const m of code.matchAll(STARTED_BY_URL)) {
      entries.add(new URL(m[2] ?? m[4], new URL(file, root)).href.slice(root.href.length));
    }
    if (/\bimport\.meta\.main\b/.test(codeText(code))) entries.add(file);
  }
  return [...entries].sort();
}

interface InfoDependency {
  specifier: string;
  isDynamic?: boolean;
  code?: { specifier?: string; error?: string };
  type?: { specifier?: string; error?: string };
}
interface InfoModule {
  specifier: string;
  kind?: string;
  error?: string;
  dependencies?: InfoDependency[];
}

/** `deno info --json --no-npm <entry>` run in `root`; its modules. Throws with Deno's stderr on failure. */
async function infoModules(root: URL, entry: string): Promise<InfoModule[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-npm", entry],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) {
    throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return JSON.parse(new TextDecoder().decode(out.stdout)).modules;
}

/** What loading `entry` (relative to `root`) loads before its first line runs: its static imports, as
 * specifiers (`file:` URLs and the `npm:` packages they name); a dynamic `import()` is left to its run. */
export async function staticImports(root: URL, entry: string): Promise<string[]> {
  const modules = new Map((await infoModules(root, entry)).map((m) => [m.specifier, m]));
  const reached = new Set([new URL(entry, root).href]);
  for (const specifier of reached) {
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code?.specifier) reached.add(dep.code.specifier);
    }
  }
  return [...reached];
}

/**
 * The graph reached from `entries`: each module under `root` with the `.ts` modules under `root` and the
 * `node:` modules it imports, paths relative to `root` (data imported as text or JSON is not a layer). A
 * module Deno could not resolve throws, naming the files that import it (an npm package is skipped:
 * `--no-npm` leaves those unresolved on purpose).
 */
export async function importGraph(root: URL, entries: string[]): Promise<Graph> {
  const graph: Graph = new Map();
  const local = (specifier: string) =>
    specifier.startsWith(root.href) ? specifier.slice(root.href.length) : undefined;
  const unresolved = new Map<string, string>();
  for (const modules of await Promise.all(entries.map((e) => infoModules(root, e)))) {
    for (const mod of modules) {
      const from = local(mod.specifier);
      if (mod.error && !mod.specifier.startsWith("npm:")) unresolved.set(from ?? mod.specifier, mod.error);
      if (!from || mod.kind !== "esm" || graph.has(from)) continue;
      const tos = new Set<string>();
      for (const dep of mod.dependencies ?? []) {
        for (const side of [dep.code, dep.type]) {
          if (side?.error) unresolved.set(`${dep.specifier} (imported by ${from})`, side.error);
          const to = side?.specifier;
          if (!to) continue;
          if (to.startsWith("node:")) tos.add(to);
          else if (local(to)?.endsWith(".ts")) tos.add(local(to)!);
        }
      }
      graph.set(from, [...tos].sort());
    }
  }
  if (unresolved.size > 0) {
    const importers = (path: string) => [...graph].filter(([, tos]) => tos.includes(path)).map(([f]) => f);
    const lines = [...unresolved].map(([path, error]) => {
      const by = importers(path);
      return `${path}${by.length > 0 ? ` (imported by ${by.join(", ")})` : ""}: ${error}`;
    });
    throw new Error(`deno info could not resolve:\n${lines.join("\n")}`);
  }
  return graph;
}
