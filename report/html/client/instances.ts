/**
 * @module
 * One instance vs several behind the balancer: req/s by instance count; why under 4 cores shows no scaling.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import { type Cell, fmtNum, fmtSweepValue, h, numCell, section, sortableTable } from "./dom.ts";
import { metricBarChart } from "./charts.ts";
import { sendCells, sendHeaders, verdictBadge } from "./sections.ts";
import { pooledSends } from "../page/verdict.ts";
import { instancesOf } from "../../../results/conclude/expect_verdict.ts";
import { meanOf } from "../../../results/stats.ts";
import { fixedOrDash } from "../../../results/text_format.ts";

/** The fields of a run this section reads (tests pass plain results runs, without verdict or sends). */
export type InstanceRun =
  & Pick<
    PageRun,
    "name" | "variant" | "load" | "sweep" | "sweep2" | "probe" | "incomplete" | "rps" | "targetInfo"
  >
  & Partial<Pick<PageRun, "verdict" | "sends">>;

/** One load: each variant's mean achieved req/s per sweep value (one value, null, when not swept). */
type InstanceGroup = NonNullable<ReturnType<typeof instanceGroups>>[number];

/** The repeats of a variant at one point: requested (mean), sent and dropped (sums), the flagged verdicts. */
export function instancePoint(at: InstanceRun[]) {
  if (at.length === 0) return null;
  const flagged = at.map((r) => r.verdict ?? "ok").filter((v) => v !== "ok");
  const verdict = flagged.length ? flagged.join("; ") : "ok";
  if (!at.every((r) => r.sends)) return { sends: null, verdict };
  return { sends: pooledSends(at.map((r) => r.sends!)), verdict };
}

/** Groups runs by load, null when no run records its instances or there is one variant only. */
export function instanceGroups(runs: InstanceRun[]) {
  const usable = runs.filter((r) => !r.probe && !r.incomplete && !r.sweep2 && r.variant && r.load);
  if (!usable.some((r) => typeof r.targetInfo?.instances === "number")) return null;
  const variants = [...new Set(usable.filter((r) => instancesOf(r) !== null).map((r) => r.variant!))];
  if (variants.length < 2) return null;
  const loads = [...new Set(usable.map((r) => r.load!))];
  return loads.map((load) => {
    const of = usable.filter((r) => r.load === load && variants.includes(r.variant!));
    // Numbers ascending; words (a categorical sweep) keep the runs' order, the file's (a stable sort).
    const values = [...new Set(of.map((r) => r.sweep?.value ?? null))].sort((a, b) =>
      (typeof a === "number" ? a : 0) - (typeof b === "number" ? b : 0)
    );
    return {
      load,
      parameter: of.find((r) => r.sweep)?.sweep?.parameter ?? null,
      values,
      variants: variants.filter((v) => of.some((r) => r.variant === v)).map((variant) => {
        const mine = of.filter((r) => r.variant === variant);
        const at = (x: number | string | null) => mine.filter((r) => (r.sweep?.value ?? null) === x);
        return {
          variant,
          instances: Math.max(...mine.map((r) => instancesOf(r) ?? 1)),
          rps: values.map((x) => meanOf(at(x).map((r) => r.rps))),
          points: values.map((x) => instancePoint(at(x))),
        };
      }),
    };
  });
}

/** Why the page cannot show scaling, or null when it can (>= 4 cores and several instances). */
export function scalingCaveat(cores: number, groups: InstanceGroup[]): string | null {
  const most = Math.max(...groups.flatMap((g) => g.variants.map((v) => v.instances)));
  if (cores >= 4 && most >= 2) return null;
  const machine = cores > 0
    ? `This machine has ${fmtNum(cores, 0)} core${cores === 1 ? "" : "s"}`
    : "The core count is unknown";
  return `${machine} and the most instances any variant ran is ${fmtNum(most, 0)}: the instances ` +
    "comparison cannot show what several instances do here. Scaling out needs a core per instance besides " +
    "the load generator's, so at least 4 cores (3 instances); below that the variants share the same core " +
    "and their differences are noise, not scaling. Run the study on a larger machine (or set the " +
    "instances, e.g. --set targets.cluster.instances=3, where the cores exist).";
}

/** Rows: load, sweep value, each variant's requested, sent, dropped, req/s and verdict, then the ratio. */
export function instanceCells(group: InstanceGroup, variants: string[]): Cell[][] {
  const sorted = [...group.variants].sort((a, b) => a.instances - b.instances);
  const [few, most] = [sorted[0], sorted[sorted.length - 1]];
  return group.values.map((x, i) => {
    const ratio = few.rps[i] && most.rps[i] !== null ? most.rps[i]! / few.rps[i]! : null;
    return [
      { text: group.load },
      x === null
        ? { text: "–", sort: Number.NaN }
        : { text: `${group.parameter}=${fmtSweepValue(x)}`, sort: x },
      ...variants.flatMap((name): Cell[] => {
        const v = group.variants.find((v) => v.variant === name);
        const point = v?.points[i] ?? null;
        return [
          ...sendCells({ sends: point?.sends ?? null }),
          numCell(v?.rps[i], (x) => fmtNum(x, 0)),
          { text: point?.verdict ?? "–" },
        ];
      }),
      numCell(ratio, (x) => `${fixedOrDash(x, 2)}×`),
    ];
  });
}

/** The section: the caveat, one bar chart per load, and the table of ratios. */
export function renderInstances(data: PageData): HTMLElement | null {
  const groups = instanceGroups(data.runs);
  if (!groups) return null;
  const sec = section(
    "instances",
    "Achieved rate vs instances",
    "Each variant labelled with the target processes serving it (behind a balancer or sharing a port when " +
      "more than one); the last column divides the most instances' req/s by the fewest's at the same point.",
  );
  const caveat = scalingCaveat(data.environment.cores ?? 0, groups);
  if (caveat) sec.appendChild(h("p", { class: "note warn", id: "instances-caveat" }, caveat));
  const grid = h("div", { class: "grid2" });
  sec.appendChild(grid);
  for (const g of groups) {
    const labels = g.values.map((x) => x === null ? g.load : `${g.parameter}=${fmtSweepValue(x)}`);
    const title = `Achieved req/s vs instances: ${g.load}${g.parameter ? ` by ${g.parameter}` : ""}`;
    const name = (v: typeof g.variants[number]) =>
      `${v.variant} (${v.instances} instance${v.instances === 1 ? "" : "s"})`;
    metricBarChart(grid, title, labels, g.variants.map((v) => ({ name: name(v), values: v.rps })), "req/s");
  }
  const variants = [...new Set(groups.flatMap((g) => g.variants.map((v) => v.variant)))];
  const headers = [
    { label: "load" },
    { label: "at", num: true },
    ...variants.flatMap((v) => {
      const [verdict, ...sends] = sendHeaders(`${v} `);
      return [...sends, { label: `${v} achieved req/s`, num: true }, verdict];
    }),
    { label: "most / fewest instances", num: true },
  ];
  // Each variant's fifth column is its verdict, drawn as the overview's badge.
  const isVerdict = (i: number) => i >= 2 && i < 2 + 5 * variants.length && (i - 2) % 5 === 4;
  const rows = groups.flatMap((g) => instanceCells(g, variants)).map((row) =>
    row.map((c, i) => isVerdict(i) && c.text !== "–" ? { ...c, node: verdictBadge(c.text!) } : c)
  );
  sec.appendChild(sortableTable(headers, rows, "instances"));
  return sec;
}
