/// <reference lib="dom" />
/**
 * @module
 * Browser helpers of report.html: elements, number formats, sortable tables; its DOM lib reference types
 * every client module (each imports this one). Client functions are inlined into the page by source text, so
 * they call only exported client functions and browser globals; data reaches the DOM as text, never markup.
 */
import { fixedOrDash, formatBytes, formatExponent, isHuge } from "../../../results/text_format.ts";

/** A child of `h`: text (always inserted as a text node), an element, or nothing. */
export type Child = string | number | Node | null | undefined | false;

/** Creates an element; attributes are set with `setAttribute` and children as text nodes or nodes. */
export function h(tag: string, attrs?: Record<string, string> | null, ...children: Child[]): HTMLElement {
  return fill(document.createElement(tag), attrs, children);
}

/** `h` for SVG: an element of the SVG namespace, its attributes and children. */
export function svg(tag: string, attrs?: Record<string, string> | null, ...children: Child[]): SVGElement {
  return fill(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
}

/** Sets `attrs` on `el` and appends `children` (text as text nodes); returns `el`. */
export function fill<E extends Element>(
  el: E,
  attrs: Record<string, string> | null | undefined,
  children: Child[],
): E {
  for (const [k, v] of Object.entries(attrs ?? {})) el.setAttribute(k, v);
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Whether a value is a finite number (JSON turns NaN into null). */
export function isNum(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

/** A latency in ms with a unit that keeps 3-4 significant digits. */
export function fmtMs(ms: number | null | undefined): string {
  if (!isNum(ms)) return "–";
  if (isHuge(ms)) return `${formatExponent(ms)} ms`;
  // By magnitude, so a negative value keeps its unit (-5 ms, not -5000 µs).
  const abs = Math.abs(ms);
  if (abs < 1) return `${(ms * 1000).toFixed(abs < 0.1 ? 1 : 0)} µs`;
  if (abs < 10) return `${ms.toFixed(2)} ms`;
  if (abs < 1000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A latency in ms without the unit (the column header has it), 3-4 significant digits. */
export function fmtMsBare(ms: number | null | undefined): string {
  if (!isNum(ms)) return "–";
  if (ms === 0) return "0";
  if (isHuge(ms)) return formatExponent(ms);
  const digits = ms < 1 ? 3 : ms < 10 ? 2 : ms < 100 ? 1 : 0;
  return ms.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A plain number with thousands separators and at most `digits` decimals. */
export function fmtNum(x: number | null | undefined, digits = 1): string {
  if (!isNum(x)) return "–";
  if (isHuge(x)) return formatExponent(x);
  return x.toLocaleString("en-US", { maximumFractionDigits: Math.abs(x) >= 100 ? 0 : digits });
}

/** A swept value: a number as `fmtNum` shows it, a word (a categorical sweep, `h2`) as it is. */
export function fmtSweepValue(x: number | string): string {
  return typeof x === "string" ? x : fmtNum(x, 2);
}

/** A percentage (already 0..100). */
export function fmtPct(x: number | null | undefined, digits = 2): string {
  return isNum(x) ? `${fixedOrDash(x, digits)}%` : "–";
}

/** A signed change, in percent unless `unit` says (`" pp"`), e.g. `+12.3%`. */
export function fmtChange(x: number | null | undefined, unit = "%"): string {
  if (!isNum(x)) return "–";
  return `${x >= 0 ? "+" : "−"}${fixedOrDash(Math.abs(x), 1)}${unit}`;
}

/** Bytes with a binary unit. */
export function fmtBytes(n: number | null | undefined): string {
  return isNum(n) ? formatBytes(n) : "–";
}

/** One cell of `sortableTable`: what to show, what to sort by, and an optional CSS class. */
export interface Cell {
  text?: string;
  node?: Node;
  sort?: number | string;
  cls?: string;
  title?: string;
}

/** A number's cell, shown by `show`; "–" sorted last when there is no finite number. */
export function numCell(x: number | null | undefined, show: (x: number) => string): Cell {
  return isNum(x) ? { text: show(x), sort: x } : { text: "–", sort: NaN };
}

/** The headers of numeric columns: right-aligned, sorted as numbers. */
export function numeric(...labels: string[]): Array<{ label: string; num: true }> {
  return labels.map((label) => ({ label, num: true }));
}

/** A table whose headers sort the rows (numbers numerically, text alphabetically, NaN last). */
export function sortableTable(
  headers: Array<{ label: string; title?: string; num?: boolean }>,
  rows: Cell[][],
  cls = "",
): HTMLElement {
  const ths = headers.map((c, i) => {
    const attrs = { scope: "col", class: c.num ? "num sortable" : "sortable", tabindex: "0" };
    const th = h("th", attrs, c.label);
    if (c.title) th.title = c.title;
    th.addEventListener("click", () => sortTableBy(th.closest("table")!, i, !!c.num));
    th.addEventListener("keydown", (e) => {
      if ((e as KeyboardEvent).key === "Enter") sortTableBy(th.closest("table")!, i, !!c.num);
    });
    return th;
  });
  const thead = h("thead", null, h("tr", null, ...ths));
  const td = (cell: Cell, i: number) => {
    const el = h("td", { class: [headers[i]?.num ? "num" : "", cell.cls ?? ""].join(" ").trim() });
    if (cell.node) el.appendChild(cell.node);
    else el.textContent = cell.text ?? "";
    if (cell.title) el.title = cell.title;
    el.dataset.sort = String(cell.sort ?? cell.text ?? "");
    return el;
  };
  const tbody = h("tbody", null, ...rows.map((row) => h("tr", null, ...row.map(td))));
  return h("div", { class: "table-wrap" }, h("table", { class: `data ${cls}`.trim() }, thead, tbody));
}

/** Sorts a table by column `col`; a second click on the same column reverses the order. */
export function sortTableBy(table: HTMLTableElement | Element, col: number, numeric: boolean): void {
  const tbody = table.querySelector("tbody")!;
  const ths = table.querySelectorAll("th");
  const th = ths[col] as HTMLElement;
  const dir = th.dataset.dir === "asc" ? "desc" : "asc";
  ths.forEach((t) => delete (t as HTMLElement).dataset.dir);
  th.dataset.dir = dir;
  const key = (tr: Element) => (tr.children[col] as HTMLElement | undefined)?.dataset.sort ?? "";
  const rows = [...tbody.querySelectorAll(":scope > tr")];
  rows.sort((a, b) => {
    if (!numeric) return key(a).localeCompare(key(b)) * (dir === "asc" ? 1 : -1);
    const [x, y] = [parseFloat(key(a)), parseFloat(key(b))];
    if (!Number.isFinite(x)) return Number.isFinite(y) ? 1 : 0;
    if (!Number.isFinite(y)) return -1;
    return (x - y) * (dir === "asc" ? 1 : -1);
  });
  for (const r of rows) tbody.appendChild(r);
}

export function section(id: string, title: string, note?: string): HTMLElement {
  const said = note ? h("p", { class: "note" }, note) : null;
  return h("section", { id, class: "card" }, h("h2", null, title), said);
}

/** A key/value definition list for facts about a run or the environment; a null value leaves its fact out. */
export function facts(pairs: Array<[string, string | null | undefined]>): HTMLElement {
  const known = pairs.filter(([, v]) => v !== null && v !== undefined);
  return h("dl", { class: "facts" }, ...known.flatMap(([k, v]) => [h("dt", null, k), h("dd", null, v)]));
}
