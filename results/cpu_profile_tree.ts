/**
 * @module
 * The merged call tree of a CPU profile, keyed by function (V8 may list one function under several
 * nodes): totals, self and total time per function (recursion counted once), and pruning.
 */
import type { ProfileSummary } from "./schema/profile.ts";

/** Merged call tree node while summarizing. */
export interface TreeNode {
  frame: number;
  selfUs: number;
  totalUs: number;
  children: Map<number, TreeNode>;
}

/** A V8 node as the tree reads it: its call frame stays opaque, turned into a frame index by the caller. */
interface V8Node<CallFrame> {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The merged tree's root and `land`, the tree node a V8 node's path of frames lands on (made once). */
export function callTree<CallFrame>(
  nodes: V8Node<CallFrame>[],
  frameOf: (callFrame: CallFrame) => number,
): { root: TreeNode; land: (id: number) => TreeNode } {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const rootId = nodes.find((n) => !parentOf.has(n.id))?.id ?? nodes[0]?.id;
  const root: TreeNode = {
    frame: frameOf(byId.get(rootId)!.callFrame),
    selfUs: 0,
    totalUs: 0,
    children: new Map(),
  };
  const landing = new Map<number, TreeNode>([[rootId, root]]);
  const land = (id: number): TreeNode => {
    const known = landing.get(id);
    if (known) return known;
    const parent = land(parentOf.get(id) ?? rootId);
    const frame = frameOf(byId.get(id)!.callFrame);
    let node = parent.children.get(frame);
    if (!node) parent.children.set(frame, node = { frame, selfUs: 0, totalUs: 0, children: new Map() });
    landing.set(id, node);
    return node;
  };
  return { root, land };
}

/** Sets each node's total time: its self time and its children's totals. */
export function sumTotals(node: TreeNode): number {
  node.totalUs = node.selfUs;
  for (const c of node.children.values()) node.totalUs += sumTotals(c);
  return node.totalUs;
}

/** Self and total time per function; total skips a function already on the path (recursion once). */
export function functionTimes(root: TreeNode, frameCount: number): { self: number[]; total: number[] } {
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
export function pruneTree(
  root: TreeNode,
  limits: { minShare: number; maxNodes: number },
): { tree: ProfileSummary["tree"]; minShare: number } {
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
