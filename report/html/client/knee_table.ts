/**
 * @module
 * "The knee, explained": what saturated, with the telemetry below and above the knee.
 */
import type { PageData } from "../page/data.ts";
import type { KneeSide } from "../../../results/conclude/knee/explained.ts";
import { type Cell, fmtNum, h, numCell, numeric, section, sortableTable } from "./dom.ts";

/** One telemetry row: what, the value below, the value above (– where not sampled). */
export function kneeRow(label: string, below: number | null, above: number | null, unit: string): Cell[] {
  const show = (v: number) => `${fmtNum(v, 1)}${unit}`;
  return [{ text: label, cls: "name" }, numCell(below, show), numCell(above, show)];
}

export function kneeRows(below: KneeSide, above: KneeSide): Cell[][] {
  const b = below.digest, a = above.digest;
  return [
    kneeRow(`CPU of ${a.cpuProcess ?? b.cpuProcess ?? "target"} (% of a core)`, b.cpuPct, a.cpuPct, "%"),
    kneeRow("main thread waiting for a core (% of time)", b.runQueueWaitPct, a.runQueueWaitPct, "%"),
    kneeRow("event-loop delay p99", b.loopP99Ms, a.loopP99Ms, " ms"),
    kneeRow("GC pauses per second", b.gcMsPerSec, a.gcMsPerSec, " ms"),
    kneeRow("Redis CPU (% of a core)", b.redisCpuPct, a.redisCpuPct, "%"),
    kneeRow("Redis ops/s", b.redisOpsPerSec, a.redisOpsPerSec, ""),
    kneeRow("pool: queries that queued", b.poolQueuedPct, a.poolQueuedPct, "%"),
  ].filter((row) => row[1].text !== "–" || row[2].text !== "–");
}

/** The section, or null when no knee was explained. */
export function renderKnees(data: PageData): HTMLElement | null {
  if (!data.knees.length) return null;
  const sec = section(
    "knees",
    "The knee, explained",
    "Target telemetry at the last point below each knee beside the first point above it (means over the " +
      "run, and over repeats), and the resource that saturated.",
  );
  for (const k of data.knees) {
    const at = (x: number, side: string) => `${k.parameter} ${fmtNum(x)} (${side})`;
    const headers = [{ label: "telemetry" }, ...numeric(at(k.below.x, "below"), at(k.above.x, "above"))];
    sec.appendChild(h("p", { class: "knee-sentence" }, k.sentence));
    sec.appendChild(sortableTable(headers, kneeRows(k.below, k.above)));
  }
  return sec;
}
