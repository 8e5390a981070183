/**
 * @module
 * The `--baseline` gate's verdicts in the report's compare view, in the terminal's words.
 */
import type { PageData } from "../page/data.ts";
import { type Cell, fmtNum, h, sortableTable } from "./dom.ts";

/** The table with a heading, or null when the page has no baseline. */
export function renderGateTable(data: PageData): HTMLElement | null {
  if (!data.gate) return null;
  const wrap = h("div", { id: "gate" });
  wrap.appendChild(h("h3", {}, "Verdicts by run group (repeats pooled)"));
  const headers = [
    { label: "run group" },
    { label: "metric" },
    { label: "baseline", num: true },
    { label: "this", num: true },
    {
      label: "verdict",
      title:
        "beyond noise when the change's noise interval (95%, at least 5 standard errors wide) excludes zero",
    },
  ];
  const rows: Cell[][] = data.gate.map((r) => [
    { text: r.key, cls: "name" },
    { text: r.metric },
    { text: fmtNum(r.baseline, 4), sort: r.baseline },
    { text: fmtNum(r.current, 4), sort: r.current },
    {
      text: r.text,
      sort: r.verdict,
      cls: r.failed || r.verdict === "worse" ? "bad" : r.verdict === "better" ? "good" : "muted",
    },
  ]);
  wrap.appendChild(sortableTable(headers, rows, "gate"));
  return wrap;
}
