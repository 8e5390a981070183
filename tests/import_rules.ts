/**
 * @module
 * The rules of docs/ARCHITECTURE.md as pure functions of an import graph (file -> the files and `node:`
 * modules it imports, paths from the repository root) and of source text, so the real graph and a made-up
 * one go through the same code: tests/import_graph_test.ts runs them on the product and on graphs built to
 * break each rule. Four rules:
 *
 * - a folder imports only the folders `ALLOWED` lists for it (a file may always import its own folder);
 * - the parts of targets/ (`app/`, `proxy/`, `balancer/`) do not import each other, nor do the protocol
 *   rooms of runner/http/ (`h1/`, `h2/`, `ws/`; the shared `tls/` and `transport/` serve them all);
 * - no import cycle between files at all (each strongly connected group is reported with one cycle spelled
 *   out);
 * - the pure folders (`PURE`) touch neither `Deno.*` nor a `node:` module that does I/O.
 */
import { codeText, lineAt } from "./code_text.ts";

/** An import graph: each file and what it imports (product files by path, libraries as `node:x`). */
export type Graph = Map<string, string[]>;

/** Which top-level folders each layer may import (besides itself). `main` is main.ts at the root. */
export const ALLOWED: Record<string, readonly string[]> = {
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
    "grpc",
    "system",
  ],
  scenarios: ["runner", "targets", "results", "validation", "http1", "http2", "ws", "grpc", "system"],
  runner: ["results", "validation", "http1", "http2", "http3", "ws", "grpc", "system"],
  targets: ["results", "validation", "http1", "http2", "http3", "ws", "grpc", "system"],
  http1: ["system"],
  // HTTP/2 framing and HPACK for engine and targets; it uses HTTP/1.1's byte classes (tokens).
  http2: ["http1", "system"],
  // HTTP/3 framing and QPACK; QPACK shares HPACK's Huffman code, dynamic table and HTTP/2's field rules.
  http3: ["http2", "http1", "system"],
  // The WebSocket codec (RFC 6455) for engine and targets; the upgrade handshake is HTTP/1.1.
  ws: ["http1", "system"],
  // gRPC's message framing, status codes, grpc-timeout and trailers for engine and targets (over HTTP/2).
  grpc: ["http1", "system"],
  report: ["results", "validation", "system"],
  results: ["validation", "system"],
  validation: ["system"],
  // Neutral helpers of the operating system (PATH, ports, files, sleep): a leaf every layer may use.
  system: [],
};

/**
 * Folders whose code is pure: no `Deno.*` and no `node:` module with I/O, so they run anywhere (a
 * browser, a worker without permissions) and are tested without a socket or a disk. `except` names the
 * one file of the folder that may, and why.
 */
export const PURE: readonly { folder: string; why: string; except?: Record<string, string> }[] = [
  { folder: "http1/", why: "protocol code: bytes in, bytes or counts out" },
  { folder: "http2/", why: "protocol code: bytes in, bytes or counts out" },
  { folder: "http3/", why: "protocol code: bytes in, bytes or counts out" },
  { folder: "ws/", why: "protocol code: bytes in, bytes or counts out" },
  { folder: "grpc/", why: "protocol code: bytes in, bytes or counts out" },
  { folder: "validation/", why: "turns schema issues into messages" },
  {
    folder: "report/",
    why: "renders results: results in, text or HTML out (render.ts writes through system/)",
  },
  {
    folder: "results/",
    why: "works on results data (conclude/ and export/ included)",
    except: { "results/io.ts": "reads and writes results.json and the environment it records" },
  },
];

/** `node:` modules that reach the disk, the network, processes or the environment. */
const NODE_IO =
  /^node:(fs|fs\/promises|net|tls|dgram|dns|http|https|http2|child_process|cluster|os|process|worker_threads|readline|inspector)$/;

/** The top-level folder of a file (`main` for main.ts). */
export function layerOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.indexOf("/")) : file.replace(/\.ts$/, "");
}

/** Every import that leaves its folder for one its layer may not use (libraries are not layers). */
export function layerViolations(graph: Graph): string[] {
  const bad: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      if (to.includes(":")) continue;
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
export function targetPartViolations(graph: Graph): string[] {
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

/** The rooms of runner/http/ that every protocol room may use; every other subfolder is a protocol room. */
export const SHARED_ROOMS: readonly string[] = ["tls", "transport"];

/**
 * Imports between the protocol rooms of runner/http/ (`h1/`, `h2/`, `ws/`, ...), or from a shared room
 * (`tls/`, `transport/`) into a protocol room: a protocol is added or changed in its own room, behind
 * `LoadConnection`, without touching another. The root of runner/http/ (the seam, the protocol table) and
 * the rest of the engine may use any room.
 */
export function roomViolations(graph: Graph): string[] {
  const roomOf = (file: string) => file.match(/^runner\/http\/([^/]+)\//)?.[1];
  const bad: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const a = roomOf(from), b = roomOf(to);
      if (a && b && a !== b && !SHARED_ROOMS.includes(b)) bad.push(`${from} -> ${to}`);
    }
  }
  return bad.sort();
}

/**
 * The strongly connected groups of more than one file (or a file importing itself), by Tarjan's algorithm.
 */
export function cycleGroups(graph: Graph): string[][] {
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
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One cycle through the group, starting and ending at its first file (breadth-first, so a short one). */
export function oneCycle(graph: Graph, group: string[]): string {
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

/** The rule of `PURE` that holds for `file`, unless the file is its named exception. */
function pureRuleOf(file: string) {
  const rule = PURE.find((r) => file.startsWith(r.folder));
  return rule && !(rule.except && file in rule.except) ? rule : undefined;
}

/**
 * Where a pure file uses `Deno` in its code (comments, strings and regular expressions do not count;
 * `globalThis.Deno` does), as `file:line: Deno (why the folder is pure)`.
 */
export function denoUses(file: string, source: string): string[] {
  const rule = pureRuleOf(file);
  if (!rule) return [];
  const code = codeText(source);
  const uses: string[] = [];
  for (const m of code.matchAll(/(?<![\w$])Deno(?![\w$])/g)) {
    const before = code.slice(0, m.index).trimEnd();
    if (before.endsWith(".") && !/\bglobalThis\s*\.$/.test(before)) continue; // `x.Deno`: a field of x
    uses.push(`${file}:${lineAt(code, m.index)}: Deno (${rule.folder} ${rule.why})`);
  }
  return uses;
}

/** Imports of `node:` modules with I/O from pure files. */
export function nodeIoImports(graph: Graph): string[] {
  const bad: string[] = [];
  for (const [from, tos] of graph) {
    const rule = pureRuleOf(from);
    for (const to of tos) {
      if (rule && NODE_IO.test(to)) bad.push(`${from} -> ${to} (${rule.folder} ${rule.why})`);
    }
  }
  return bad.sort();
}
