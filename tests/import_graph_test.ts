/**
 * @module
 * Keeps the layers of docs/ARCHITECTURE.md true. Reads the import graph of the product's files (every
 * `.ts` file except `*_test.ts`, `tests/`, `bench/` and `examples/`) from their source text: static
 * `import`/`export ... from` specifiers, side-effect imports and string-literal dynamic imports, relative
 * ones only (npm:, node: and bare specifiers are libraries, not layers). Three rules:
 *
 * - a folder imports only the folders below it (`ALLOWED`); a file may always import its own folder, and
 *   every folder the neutral `system/` (which imports nothing of loadlab);
 * - the parts of targets/ (`app/`, `proxy/`, `balancer/`) do not import each other;
 * - no import cycle between files at all (each strongly connected group of files is reported, with one
 *   cycle through it spelled out).
 *
 * What still breaks a rule is listed in `KNOWN_EDGES` and `KNOWN_CYCLES`, each entry with why it is there.
 * The test also fails when a listed exception no longer exists, so the lists only ever shrink.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Which top-level folders each layer may import (besides itself). `main` is main.ts at the root. */
const ALLOWED: Record<string, readonly string[]> = {
  main: ["cli", "system"],
  cli: [
    "scenarios",
    "runner",
    "targets",
    "report",
    "results",
    "validation",
    "http1",
    "http2",
    "ws",
    "system",
  ],
  scenarios: ["runner", "targets", "results", "validation", "http1", "http2", "ws", "system"],
  runner: ["results", "validation", "http1", "http2", "ws", "system"],
  targets: ["results", "validation", "http1", "http2", "ws", "system"],
  http1: ["system"],
  // HTTP/2 framing and HPACK for engine and targets; it uses HTTP/1.1's byte classes (tokens).
  http2: ["http1", "system"],
  // RFC 6455 frames and handshake for the engine's WebSocket client; neutral and pure like http1/.
  ws: ["http1", "system"],
  report: ["results", "validation", "system"],
  results: ["validation", "system"],
  validation: ["system"],
  // Neutral helpers of the operating system (PATH, ports, files, sleep): a leaf every layer may use.
  system: [],
};

/**
 * Imports that cross a layer the wrong way today, as `from -> to` (paths from the repository root).
 * Each must still exist; remove an entry when the import goes.
 */
const KNOWN_EDGES: readonly string[] = [];

/**
 * Import cycles that remain, as the sorted files of each strongly connected group joined by " <-> ".
 * Each must still exist; remove an entry when the cycle is broken.
 */
const KNOWN_CYCLES: readonly string[] = [];

/** Top-level folders that are not the product (tests, benchmarks, example apps, build output). */
const NOT_PRODUCT = ["tests", "bench", "examples", "node_modules", "dist", "out"];

/** Relative paths (from the root) of the product's .ts files. */
async function productFiles(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
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

const STATIC_IMPORT = /^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/gm;
const SIDE_EFFECT_IMPORT = /^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The product .ts files `file` imports, resolved to root-relative paths. */
function importsOf(file: string, source: string): string[] {
  const specifiers = [STATIC_IMPORT, SIDE_EFFECT_IMPORT, DYNAMIC_IMPORT]
    .flatMap((re) => [...source.matchAll(re)].map((m) => m[1]))
    .filter((s) => s.startsWith(".") && s.endsWith(".ts"));
  return specifiers.map((s) => new URL(s, new URL(file, ROOT)).href.slice(ROOT.href.length));
}

async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await productFiles()) {
    graph.set(file, importsOf(file, await Deno.readTextFile(new URL(file, ROOT))));
  }
  return graph;
}

function layerOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.indexOf("/")) : file.replace(/\.ts$/, "");
}

/** Every import that leaves its folder for one its layer may not use. */
function layerViolations(graph: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const a = layerOf(from), b = layerOf(to);
      if (a !== b && !(ALLOWED[a] ?? []).includes(b)) bad.push(`${from} -> ${to}`);
    }
  }
  return [...new Set(bad)].sort();
}

/**
 * Imports between the parts of targets/ (`app/`, `proxy/`, `balancer/`): each part may use the top of
 * targets/ (spec, redis, errors) but never another part, so a part can be read, and changed, on its own.
 */
function targetPartViolations(graph: Map<string, string[]>): string[] {
  const partOf = (file: string) => file.match(/^targets\/([^/]+)\//)?.[1];
  const bad: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const a = partOf(from), b = partOf(to);
      if (a && b && a !== b) bad.push(`${from} -> ${to}`);
    }
  }
  return bad.sort();
}

/** The strongly connected groups of more than one file (or a file importing itself), by Tarjan's algorithm. */
function cycleGroups(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], onStack = new Set<string>(), groups: string[][] = [];
  let next = 0;
  function visit(v: string): void {
    index.set(v, next), low.set(v, next), next++;
    stack.push(v), onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) visit(w), low.set(v, Math.min(low.get(v)!, low.get(w)!));
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do (w = stack.pop()!, onStack.delete(w), group.push(w)); while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group.sort());
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

/** One cycle through the group, starting and ending at its first file (breadth-first, so a short one). */
function oneCycle(graph: Map<string, string[]>, group: string[]): string {
  const inGroup = new Set(group), start = group[0];
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = parent.get(u)!) path.splice(1, 0, u);
        return [...path, start].join(" -> ");
      }
      if (inGroup.has(w) && !parent.has(w)) parent.set(w, v), queue.push(w);
    }
  }
  return group.join(" -> ");
}

Deno.test("each layer imports only the layers below it", async () => {
  const violations = layerViolations(await importGraph());
  const unlisted = violations.filter((v) => !KNOWN_EDGES.includes(v));
  const gone = KNOWN_EDGES.filter((v) => !violations.includes(v));
  assertEquals(
    { unlisted, gone },
    { unlisted: [], gone: [] },
    [
      ...unlisted.map((v) => `import against the layers: ${v}`),
      ...gone.map((v) => `listed in KNOWN_EDGES but no longer imported (remove it): ${v}`),
    ].join("\n"),
  );
});

Deno.test("the parts of targets/ do not import each other", async () => {
  const graph = await importGraph();
  assertEquals(targetPartViolations(graph), []);
  // The rule has something to hold: the parts exist and the top of targets/ uses them.
  for (const part of ["app", "proxy", "balancer"]) {
    assertEquals(
      (graph.get("targets/child_main.ts") ?? []).some((f) => f.startsWith(`targets/${part}/`)),
      true,
    );
  }
});

Deno.test("no import cycle between files", async () => {
  const graph = await importGraph();
  const groups = cycleGroups(graph);
  const found = groups.map((g) => g.join(" <-> "));
  const unlisted = groups.filter((g) => !KNOWN_CYCLES.includes(g.join(" <-> ")));
  const gone = KNOWN_CYCLES.filter((c) => !found.includes(c));
  assertEquals(
    { unlisted: unlisted.map((g) => g.join(" <-> ")), gone },
    { unlisted: [], gone: [] },
    [
      ...unlisted.map((g) => `import cycle: ${oneCycle(graph, g)}`),
      ...gone.map((c) => `listed in KNOWN_CYCLES but no longer a cycle (remove it): ${c}`),
    ].join("\n"),
  );
});

Deno.test("the graph reader sees every kind of import the product uses", async () => {
  const graph = await importGraph();
  // main.ts reaches its commands only through dynamic imports; the report's client modules through
  // multi-line `import {...} from`; a type-only import counts like any other.
  assertEquals((graph.get("main.ts") ?? []).includes("cli/run_cmd.ts"), true);
  assertEquals([...graph.values()].flat().includes("results/schema.ts"), true);
  assertEquals(
    importsOf("a/b.ts", 'import {\n  x,\n  type Y,\n} from "../c/d.ts";\nimport type { Z } from "./e.ts";'),
    [
      "c/d.ts",
      "a/e.ts",
    ],
  );
});
