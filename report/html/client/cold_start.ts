/**
 * @module
 * The cold-start section: per target start the ms to listening, ready and first 2xx; each variant's curve.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import { type Cell, fmtMs, fmtNum, h, numCell, section, sortableTable } from "./dom.ts";
import { color, colored, timeChart, times } from "./charts.ts";

/** Latency (ms) over seconds since spawn for one start: probes, then the run's interval medians. */
export function coldStartCurve(run: PageRun): Array<{ x: number; y: number | null }> {
  const cs = run.coldStart!;
  const points: Array<{ x: number; y: number | null }> = [];
  let atMs = cs.readyMs;
  for (const ms of cs.firstRequestsMs) {
    atMs += ms ?? 0;
    points.push({ x: atMs / 1000, y: ms });
  }
  const offsetSec = (cs.runStartMs + run.warmupSec * 1000) / 1000 + run.iv.durSec / 2;
  times(run.iv.t).forEach((t, i) => points.push({ x: t + offsetSec, y: run.iv.p50[i] ?? null }));
  return points;
}

export function coldStartRow(run: PageRun): Cell[] {
  const cs = run.coldStart!;
  const ms = (v: number | null | undefined) => numCell(v, fmtMs);
  const probes = cs.firstRequestsMs;
  return [
    { text: run.variant ?? run.name, cls: "name" },
    { text: fmtNum(cs.start), sort: cs.start },
    { text: run.name, cls: "name" },
    ms(cs.listeningMs),
    ms(cs.readyMs),
    ms(cs.first2xxMs),
    ms(probes[0]),
    ms(probes.length > 1 ? probes[probes.length - 1] : null),
  ];
}

/** The section, or null when no run followed a target start. */
export function renderColdStart(data: PageData): HTMLElement | null {
  const runs = data.runs.filter((r) => r.coldStart);
  if (!runs.length) return null;
  const sec = section(
    "cold-start",
    "Cold start",
    "From the spawn of each target's first process: when it listened, was ready and answered its first " +
      "2xx, then the latency of the probe requests sent one at a time (the first includes the TCP connect) " +
      "and the median of each interval of the run that followed.",
  );
  const variants = [...new Set(runs.map((r) => r.variant ?? r.name))];
  const grid = h("div", { class: "grid2" });
  sec.appendChild(grid);
  // One chart per load (each asks for its own path); one colour per variant, each start its own line.
  for (const load of [...new Set(runs.map((r) => r.load ?? ""))]) {
    const atLoad = runs.filter((r) => (r.load ?? "") === load);
    const datasets = atLoad.map((r) => {
      const v = r.variant ?? r.name;
      const i = variants.indexOf(v);
      const first = atLoad.find((x) => (x.variant ?? x.name) === v) === r;
      const label = first ? v : `${v} start ${r.coldStart!.start}`;
      return colored(i, label, coldStartCurve(r), {
        borderColor: color(i, first ? 1 : 0.5),
        pointRadius: 2,
        legendShown: first,
      });
    });
    timeChart(grid, `cold-start curve${load ? ` of ${load}` : ""}: latency since spawn`, datasets, {
      parsing: false,
      plugins: {
        legend: { labels: { filter: (item: any, d: any) => d.datasets[item.datasetIndex].legendShown } },
      },
      scales: {
        x: { type: "linear", min: 0, title: { display: true, text: "seconds since spawn" } },
        y: { type: "logarithmic", title: { display: true, text: "ms (probes, then interval p50)" } },
      },
    }, []);
  }
  const headers = ["variant", "start", "run", "listening", "ready", "first 2xx", "1st probe", "last probe"]
    .map((label, i) => ({ label, num: i === 1 || i > 2 }));
  sec.appendChild(sortableTable(headers, runs.map(coldStartRow)));
  return sec;
}
