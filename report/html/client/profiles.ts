/**
 * @module
 * CPU profiles on the page: top functions, an SVG flame graph, first second vs the rest, a diff of two.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import type { ProfileRef } from "../page/profiles.ts";
import type { ProfileSummary } from "../../../results/schema/profile.ts";
import { type Cell, facts, fmtChange, fmtMs, fmtNum, fmtPct, h, section, sortableTable, svg } from "./dom.ts";

/** Where a function is: `script:line`, or "" for V8's own entries like `(garbage collector)`. */
export function profileWhere(s: ProfileSummary, frame: number): string {
  const f = s.frames[frame];
  return f.url ? `${f.url}:${f.line}` : "";
}

/** Functions by key (name, script and line), each with its self time's share (%) of the busy time. */
type SelfShares = Map<string, { name: string; where: string; pct: number }>;

/** Self time per function (by key) as a share (%) of the busy time, for a whole profile or one window. */
export function profileSelfShares(s: ProfileSummary, window: number | null): SelfShares {
  const out: SelfShares = new Map();
  const w = window === null ? null : s.windows[window];
  const busy = w ? w.busyUs : s.durationUs - s.idleUs;
  const rows: Array<[number, number]> = w ? w.self : s.top.map((t) => [t.frame, t.selfUs]);
  for (const [frame, us] of rows) {
    // A function's identity across profiles: name, script and line.
    const { name, url, line } = s.frames[frame];
    out.set(`${name} ${url}:${line}`, {
      name,
      where: profileWhere(s, frame),
      pct: busy > 0 ? (us / busy) * 100 : 0,
    });
  }
  return out;
}

/** Top functions by self and total time, as a sortable table (ms of sampled CPU and % of busy time). */
export function profileTopTable(s: ProfileSummary): HTMLElement {
  const busy = Math.max(s.durationUs - s.idleUs, 1);
  const rows: Cell[][] = s.top.map((t) => [
    { text: s.frames[t.frame].name },
    { text: profileWhere(s, t.frame) },
    { text: fmtMs(t.selfUs / 1000), sort: t.selfUs },
    { text: fmtPct((t.selfUs / busy) * 100, 1), sort: t.selfUs },
    { text: fmtMs(t.totalUs / 1000), sort: t.totalUs },
    { text: fmtPct((t.totalUs / busy) * 100, 1), sort: t.totalUs },
  ]);
  return sortableTable(
    [
      { label: "function" },
      { label: "where" },
      { label: "self", num: true, title: "sampled CPU time in the function itself" },
      { label: "self % busy", num: true },
      { label: "total", num: true, title: "in the function and what it called (recursion counted once)" },
      { label: "total % busy", num: true },
    ],
    rows,
    "compact profile-top",
  );
}

/** A frame's fill: V8's own entries grey, packages and the runtime's code cool, app code warm. */
export function profileColor(name: string, url: string): string {
  if (name.startsWith("(")) return "#9aa3b2";
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
  const shade = 45 + (Math.abs(hash) % 20);
  const internal = /^(npm|ext|node):/.test(url) || url === "";
  return internal
    ? `hsl(${200 + (Math.abs(hash) % 40)}, 55%, ${shade}%)`
    : `hsl(${15 + (Math.abs(hash) % 30)}, 80%, ${shade}%)`;
}

/** The flame graph of `s` from tree node `rootIndex`: a row per depth, each node as wide as its total. */
export function drawFlameGraph(s: ProfileSummary, holder: HTMLElement, rootIndex = 0): void {
  const width = 1200, rowPx = 18;
  const kids: number[][] = s.tree.map(() => []);
  s.tree.forEach(([, parent], i) => parent >= 0 && kids[parent].push(i));
  const rootTotal = Math.max(s.tree[rootIndex]?.[2] ?? 0, 1);
  const boxes: Array<{ i: number; x: number; w: number; depth: number }> = [];
  const place = (i: number, x: number, depth: number) => {
    const w = (s.tree[i][2] / rootTotal) * width;
    boxes.push({ i, x, w, depth });
    let cx = x;
    for (const k of kids[i]) {
      place(k, cx, depth + 1);
      cx += (s.tree[k][2] / rootTotal) * width;
    }
  };
  if (s.tree.length) place(rootIndex, 0, 0);
  const depth = boxes.reduce((m, b) => Math.max(m, b.depth), 0) + 1;
  const viewBox = `0 0 ${width} ${depth * rowPx}`;
  const flame = svg("svg", {
    viewBox,
    width: "100%",
    class: "flame",
    role: "img",
    "aria-label": "flame graph",
  });
  const total = s.tree[0]?.[2] ?? 0;
  for (const b of boxes.filter((b) => b.w >= 0.5)) {
    const [frame, , totalUs, selfUs] = s.tree[b.i];
    const f = s.frames[frame];
    const title = `${f.name}${f.url ? ` (${f.url}:${f.line})` : ""}\ntotal ${fmtMs(totalUs / 1000)} (` +
      `${fmtPct(total ? (totalUs / total) * 100 : 0, 1)} of the profile), self ${fmtMs(selfUs / 1000)}`;
    const rect = svg("rect", {
      x: b.x.toFixed(1),
      y: String(b.depth * rowPx),
      width: Math.max(b.w - 0.5, 0.5).toFixed(1),
      height: String(rowPx - 1),
      fill: profileColor(f.name, f.url),
    });
    const chars = Math.floor((b.w - 6) / 7);
    const name = f.name.length > chars ? f.name.slice(0, chars - 1) + "…" : f.name;
    const at = { x: (b.x + 3).toFixed(1), y: String(b.depth * rowPx + rowPx - 5) };
    const text = chars >= 3 && svg("text", { ...at, "font-size": "12", fill: "#111" }, name);
    const g = svg("g", { class: "frame" }, svg("title", null, title), rect, text);
    g.addEventListener("click", () => drawFlameGraph(s, holder, b.i === rootIndex ? 0 : b.i));
    flame.appendChild(g);
  }
  holder.replaceChildren(flame);
}

/** A diff table of self time shares: A, B and the change in percentage points, largest change first. */
export function profileDiffTable(a: SelfShares, b: SelfShares): HTMLElement {
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  const rows = keys.map((k) => {
    const x = a.get(k), y = b.get(k);
    const pa = x?.pct ?? 0, pb = y?.pct ?? 0;
    return { name: (x ?? y)!.name, where: (x ?? y)!.where, pa, pb, d: pb - pa };
  }).sort((p, q) => Math.abs(q.d) - Math.abs(p.d));
  const cells: Cell[][] = rows.map((r) => [
    { text: r.name },
    { text: r.where },
    { text: fmtPct(r.pa, 1), sort: r.pa },
    { text: fmtPct(r.pb, 1), sort: r.pb },
    { text: fmtChange(r.d, " pp"), sort: r.d },
  ]);
  return sortableTable(
    [
      { label: "function" },
      { label: "where" },
      { label: "A self % busy", num: true },
      { label: "B self % busy", num: true },
      { label: "B − A", num: true, title: "percentage points of busy CPU time" },
    ],
    cells,
    "compact profile-diff",
  );
}

/** The CPU profiles of one run (run details): facts, top functions, flame graph, first second vs rest. */
export function runProfiles(run: PageRun, cost: string): HTMLElement | null {
  const profiles = run.profiles ?? [];
  if (!profiles.length) return null;
  const box = h("div", { class: "profiles", id: "run-profiles" });
  for (const p of profiles) {
    box.appendChild(h("h3", null, `CPU profile: ${p.process}`));
    const s = p.summary;
    if (!s) {
      box.appendChild(h("p", { class: "warn" }, `No profile: ${p.error ?? "none was taken"}`));
      continue;
    }
    box.appendChild(
      h("p", { class: "note" }, `Profiled run: its numbers include the profiler's cost. ${cost}`),
    );
    if (p.warning) box.appendChild(h("p", { class: "warn" }, p.warning));
    const [over, every] = [fmtMs(s.durationUs / 1000), fmtMs(s.intervalUs / 1000)];
    const idle = fmtPct(s.durationUs ? (s.idleUs / s.durationUs) * 100 : NaN, 1);
    box.appendChild(facts([
      ["file", p.file ?? "–"],
      ["sampled", `${fmtNum(s.samples)} samples over ${over}, one per ${every}`],
      ["idle", `${idle} of the time (waiting for I/O or timers)`],
      [
        "flame graph",
        `functions under ${fmtPct(s.minShare * 100, 1)} of the profile are left out; click to zoom`,
      ],
    ]));
    const flame = h("div", { class: "flame-holder" });
    box.appendChild(flame);
    drawFlameGraph(s, flame);
    box.appendChild(profileTopTable(s));
    if (s.windows.length === 2) {
      box.appendChild(h("h3", null, `${s.windows[0].label} (A) vs ${s.windows[1].label} (B)`));
      box.appendChild(profileDiffTable(profileSelfShares(s, 0), profileSelfShares(s, 1)));
    }
  }
  return box;
}

/** The "CPU profiles" section: what profiling costs, ready-made pairs, and any two profiles diffed. */
export function renderProfileDiff(data: PageData): HTMLElement | null {
  const pp = data.profiles;
  if (!pp || !pp.refs.length) return null;
  const sec = section(
    "profiles",
    "CPU profiles",
    `Self time per function as a share of busy (not idle) CPU time in two profiles; a function outside a ` +
      `profile's top list counts as 0 there. Each run's own profile is under Run details. ${pp.cost}`,
  );
  const selA = profileRefSelect("profile-a", "profile A", pp.refs);
  const selB = profileRefSelect("profile-b", "profile B", pp.refs);
  const pairs = h(
    "select",
    { id: "profile-pair", "aria-label": "pair" },
    h("option", { value: "" }, "choose a pair…"),
    ...pp.pairs.map((p, i) => h("option", { value: String(i) }, p.label)),
  ) as HTMLSelectElement;
  const out = h("div", { id: "profile-diff" });
  // Empty when either profile's run or process kept no summary.
  const draw = () => {
    const [a, b] = [pp.refs[Number(selA.value)], pp.refs[Number(selB.value)]];
    const [sa, sb] = [a, b].map((ref) =>
      data.runs.find((r) => r.name === ref.run)?.profiles?.find((p) => p.process === ref.process)?.summary
    );
    out.replaceChildren(
      ...sa && sb ? [profileDiffTable(profileSelfShares(sa, a.window), profileSelfShares(sb, b.window))] : [],
    );
  };
  pairs.addEventListener("change", () => {
    const pair = pp.pairs[Number(pairs.value)];
    if (!pair) return;
    [selA.value, selB.value] = [String(pair.a), String(pair.b)];
    draw();
  });
  selA.addEventListener("change", draw);
  selB.addEventListener("change", draw);
  const first = pp.pairs[0];
  [selA.value, selB.value] = first
    ? [String(first.a), String(first.b)]
    : ["0", String(Math.min(1, pp.refs.length - 1))];
  if (first) pairs.value = "0";
  if (pp.pairs.length) sec.appendChild(h("label", { class: "picker" }, "Pair ", pairs));
  sec.appendChild(h("label", { class: "picker" }, "A ", selA));
  sec.appendChild(h("label", { class: "picker" }, "B ", selB));
  sec.appendChild(out);
  draw();
  return sec;
}

/** A picker of the profiles a diff can compare, by their index in `refs`. */
export function profileRefSelect(id: string, label: string, refs: ProfileRef[]): HTMLSelectElement {
  return h(
    "select",
    { id, "aria-label": label },
    ...refs.map((ref, i) => h("option", { value: String(i) }, ref.label)),
  ) as HTMLSelectElement;
}
