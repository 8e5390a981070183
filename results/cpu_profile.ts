/**
 * @module
 * A V8 `.cpuprofile` in short: its call tree, top functions, and self time in the first second and after.
 */
import type { ProfileFrame, ProfileFunction, ProfileSummary, ProfileWindow } from "./schema/profile.ts";

/** The parts of a `.cpuprofile` this module reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface SummaryLimits {
  minShare: number;
  /** At most this many tree nodes; the share is raised until the tree fits. */
  maxNodes: number;
  /** Functions in `top` (by self time, then as many by total time) and in each window. */
  topCount: number;
}

const SUMMARY_LIMITS: SummaryLimits = { minShare: 0.005, maxNodes: 200, topCount: 20 };

/** The first window: warm-up (JIT compiling, first GCs) shows here, steady state after it. */
const FIRST_WINDOW_US = 1_000_000;

/** Frames V8 adds that are no JavaScript function; `(idle)` is time the process waited. */
const IDLE = "(idle)";
const ROOT = "(root)";

/** Whether `value` has the shape of a `.cpuprofile` (nodes, samples and their time deltas). */
export function isCpuProfile(value: unknown): value is CpuProfile {
  const p = value as CpuProfile;
  return typeof p === "object" && p !== null && Array.isArray(p.nodes) && Array.isArray(p.samples) &&
    Array.isArray(p.timeDeltas) && typeof p.startTime === "number";
}

/** A script URL shortened: `npm:` package paths, `node:`/`ext:` as is, else the last two segments. */
export function shortUrl(url: string): string {
  const path = url.replace(/[?#].*$/, "");
  const pkg = /\/node_modules\/(?!.*\/node_modules\/)(.+)$/.exec(path) ??
    /\/registry\.npmjs\.org\/(.+)$/.exec(path);
  if (pkg) return `npm:${pkg[1]}`;
  if (/^[a-z]+:(?!\/\/)/.test(path)) return path;
  return path.split("/").filter(Boolean).slice(-2).join("/");
}

function sampleWeights(p: CpuProfile): number[] {
  const n = p.samples.length;
  const weights = new Array<number>(n);
  let t = p.startTime;
  const times = p.timeDeltas.map((d) => (t += d));
  for (let i = 0; i < n; i++) {
    const next = i + 1 < n ? times[i + 1] : Math.max(p.endTime, times[i]);
    weights[i] = Math.max(0, next - times[i]);
  }
  return weights;
}

/** Interns frames by function identity, so equal functions under different V8 nodes merge. */
class Frames {
  list: ProfileFrame[] = [];
  #index = new Map<string, number>();
  of(cf: CpuProfile["nodes"][number]["callFrame"]): number {
    const name = cf.functionName || "(anonymous)";
    const key = `${name}\0${cf.url}\0${cf.lineNumber}\0${cf.columnNumber ?? 0}`;
    let i = this.#index.get(key);
    if (i === undefined) {
      i = this.list.push({ name, url: shortUrl(cf.url), line: cf.lineNumber + 1 }) - 1;
      this.#index.set(key, i);
    }
    return i;
  }
}

/** Summarizes a `.cpuprofile`; windows count from `loadStartUs`, when the load started. */
export function summarizeProfile(
  p: CpuProfile,
  limits: SummaryLimits = SUMMARY_LIMITS,
  loadStartUs = 0,
): ProfileSummary {
  const frames = new Frames();
  const weights = sampleWeights(p);
  const { root, land } = callTree(p.nodes, frames);
  const times = landSamples(p, weights, land, frames, loadStartUs);
  sumTotals(root);
  const durationUs = weights.reduce((a, b) => a + b, 0);
  const top = topFunctions(root, frames.list, limits.topCount);
  const windows = loadWindows(p, times, limits, loadStartUs);
  const { tree, minShare } = pruneTree(root, limits);
  return compactFrames({
    durationUs: Math.round(durationUs),
    samples: p.samples.length,
    intervalUs: p.samples.length ? Math.round(durationUs / p.samples.length) : 0,
    idleUs: Math.round(times.idleUs),
    frames: frames.list,
    tree,
    minShare,
    top,
    windows,
  });
}

function landSamples(
  p: CpuProfile,
  weights: number[],
  land: (id: number) => TreeNode,
  frames: Frames,
  loadStartUs: number,
) {
  const times = {
    idleUs: 0,
    firstBusyUs: 0,
    restBusyUs: 0,
    firstSelfUs: new Map<number, number>(),
    restSelfUs: new Map<number, number>(),
  };
  let sampleUs = 0; // the sample's time after the profile's start
  for (let i = 0; i < p.samples.length; i++) {
    const node = land(p.samples[i]);
    const w = weights[i];
    node.selfUs += w;
    sampleUs += p.timeDeltas[i];
    const idle = frames.list[node.frame].name === IDLE;
    if (idle) times.idleUs += w;
    const early = sampleUs < loadStartUs + FIRST_WINDOW_US;
    if (!idle && sampleUs >= loadStartUs) {
      const into = early ? times.firstSelfUs : times.restSelfUs;
      into.set(node.frame, (into.get(node.frame) ?? 0) + w);
      if (early) times.firstBusyUs += w;
      else times.restBusyUs += w;
    }
  }
  return times;
}

function loadWindows(
  p: CpuProfile,
  times: ReturnType<typeof landSamples>,
  limits: SummaryLimits,
  loadStartUs: number,
): ProfileWindow[] {
  const endUs = Math.max(p.endTime - p.startTime, 0);
  const firstEndUs = Math.min(loadStartUs + FIRST_WINDOW_US, endUs);
  return [
    window("first second of the load", loadStartUs, firstEndUs, times.firstBusyUs, times.firstSelfUs, limits),
    ...(endUs > firstEndUs
      ? [window("after it", firstEndUs, endUs, times.restBusyUs, times.restSelfUs, limits)]
      : []),
  ];
}

function window(
  label: string,
  fromUs: number,
  toUs: number,
  busyUs: number,
  self: Map<number, number>,
  limits: SummaryLimits,
): ProfileWindow {
  const ranked = [...self].sort((a, b) => b[1] - a[1]).slice(0, limits.topCount);
  return {
    label,
    fromUs: Math.round(fromUs),
    toUs: Math.round(toUs),
    busyUs: Math.round(busyUs),
    self: ranked.map(([f, us]) => [f, Math.round(us)]),
  };
}

function topFunctions(root: TreeNode, frames: ProfileFrame[], topCount: number): ProfileFunction[] {
  const { self, total } = functionTimes(root, frames.length);
  const shown = (f: number) => frames[f].name !== IDLE && frames[f].name !== ROOT;
  const ids = [...frames.keys()].filter(shown);
  const bySelf = [...ids].sort((a, b) => self[b] - self[a]).slice(0, topCount);
  const byTotal = [...ids].sort((a, b) => total[b] - total[a]).slice(0, topCount);
  const chosen = [...new Set([...bySelf, ...byTotal])].filter((f) => total[f] > 0);
  return chosen.map((f) => ({ frame: f, selfUs: Math.round(self[f]), totalUs: Math.round(total[f]) }));
}

function compactFrames(s: ProfileSummary): ProfileSummary {
  const used = new Map<number, number>();
  const frames: ProfileFrame[] = [];
  const map = (f: number) => {
    let i = used.get(f);
    if (i === undefined) used.set(f, i = frames.push(s.frames[f]) - 1);
    return i;
  };
  const tree = s.tree.map(([f, parent, total, self]) =>
    [map(f), parent, total, self] as [number, number, number, number]
  );
  const top = s.top.map((t) => ({ ...t, frame: map(t.frame) }));
  const windows = s.windows.map((w) => ({
    ...w,
    self: w.self.map(([f, us]) => [map(f), us] as [number, number]),
  }));
  return { ...s, frames, tree, top, windows };
}

/** Above this idle share a profile shows too little of the work to be read as the target's CPU. */
const MOSTLY_IDLE_SHARE = 0.95;

/** What qualifies a mostly idle profile (work in threads, children or Deno's Rust side), or null. */
export function idleWarning(
  s: ProfileSummary,
  runtime: "node" | "deno",
  children: { count: number; cpuSec: number } | null,
): string | null {
  if (s.durationUs <= 0 || s.idleUs / s.durationUs <= MOSTLY_IDLE_SHARE) return null;
  const [pct, sec] = [((s.idleUs / s.durationUs) * 100).toFixed(1), (s.durationUs / 1e6).toFixed(2)];
  const share = `${pct}% of ${sec} s idle`;
  const deno = runtime === "deno" ? ", or in Deno's Rust side (HTTP serving), which V8 counts as idle" : "";
  const busy = children !== null && children.cpuSec >= 0.01
    ? `; its ${children.count} child process${children.count === 1 ? "" : "es"} used ${
      children.cpuSec.toFixed(2)
    } s of CPU meanwhile`
    : "";
  return `profile mostly idle (${share}): the work may run in another process (workers/cluster)${deno}${busy}`;
}

/** What profiling costs the target (docs/PROFILES.md), shown beside every profile in the report. */
export const PROFILING_COST = {
  sentence:
    "Profiling cost, measured on a busy 2-core machine (2026-11-22, load average 10-20, docs/PROFILES.md): " +
    "0-15% more target CPU per request in steady state (most on deep CPU-bound code such as recursive fib), " +
    "plus a start-up cost at the run's beginning (attaching, starting the profiler); req/s changes were mostly within the " +
    "machine's noise, once 40% fewer for Express; a fresh Node process profiled through its warm-up served about " +
    "a quarter to two thirds of its unprofiled req/s in 2 s runs. Read a profiled run's req/s as a lower bound.",
};

interface TreeNode {
  frame: number;
  selfUs: number;
  totalUs: number;
  children: Map<number, TreeNode>;
}

/** The merged tree's root and `land`, the tree node a V8 node's path of frames lands on (made once). */
function callTree(nodes: CpuProfile["nodes"], frames: Frames) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const rootId = nodes.find((n) => !parentOf.has(n.id))?.id ?? nodes[0]?.id;
  const root: TreeNode = {
    frame: frames.of(byId.get(rootId)!.callFrame),
    selfUs: 0,
    totalUs: 0,
    children: new Map(),
  };
  const landing = new Map<number, TreeNode>([[rootId, root]]);
  const land = (id: number): TreeNode => {
    const known = landing.get(id);
    if (known) return known;
    const parent = land(parentOf.get(id) ?? rootId);
    const frame = frames.of(byId.get(id)!.callFrame);
    let node = parent.children.get(frame);
    if (!node) parent.children.set(frame, node = { frame, selfUs: 0, totalUs: 0, children: new Map() });
    landing.set(id, node);
    return node;
  };
  return { root, land };
}

/** Sets each node's total time: its self time and its children's totals. */
function sumTotals(node: TreeNode): number {
  node.totalUs = node.selfUs;
  for (const c of node.children.values()) node.totalUs += sumTotals(c);
  return node.totalUs;
}

/** Self and total time per function; total skips a function already on the path (recursion once). */
function functionTimes(root: TreeNode, frameCount: number): { self: number[]; total: number[] } {
  const self = new Array<number>(frameCount).fill(0);
  const total = new Array<number>(frameCount).fill(0);
  const onPath = new Array<number>(frameCount).fill(0);
  const visit = (node: TreeNode) => {
    self[node.frame] += node.selfUs;
    if (onPath[node.frame] === 0) total[node.frame] += node.totalUs;
    onPath[node.frame]++;
    for (const c of node.children.values()) visit(c);
    onPath[node.frame]--;
  };
  visit(root);
  return { self, total };
}

/** The tree in pre-order without nodes under `minShare`, cut to `maxNodes` (the share it was cut at). */
function pruneTree(root: TreeNode, limits: { minShare: number; maxNodes: number }) {
  const floor = root.totalUs * limits.minShare;
  const all: Array<{ node: TreeNode; depth: number }> = [];
  const collect = (node: TreeNode, depth: number) => {
    all.push({ node, depth });
    for (const c of node.children.values()) if (c.totalUs >= floor && c.totalUs > 0) collect(c, depth + 1);
  };
  collect(root, 0);
  all.sort((a, b) => b.node.totalUs - a.node.totalUs || a.depth - b.depth);
  const kept = new Set(all.slice(0, limits.maxNodes).map((e) => e.node));
  const cut = all[limits.maxNodes]?.node.totalUs;
  const minShare = cut === undefined || root.totalUs === 0 ? limits.minShare : cut / root.totalUs;
  const tree: ProfileSummary["tree"] = [];
  const visit = (node: TreeNode, parent: number) => {
    const index = tree.push([node.frame, parent, Math.round(node.totalUs), Math.round(node.selfUs)]) - 1;
    const kids = [...node.children.values()].filter((c) => kept.has(c));
    for (const c of kids.sort((a, b) => b.totalUs - a.totalUs)) visit(c, index);
  };
  visit(root, -1);
  return { tree, minShare };
}
