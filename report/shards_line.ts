/**
 * @module
 * The one sentence about generators split over machines (shards, hosts, what is missing). Pure.
 */
import type { ResultsFile } from "../results/mod.ts";

/** "4 shards on 3 hosts (a, b, c)", with the missing segments of a partial merge; null when not split. */
export function shardsLine(results: Pick<ResultsFile, "shards" | "runs">): string | null {
  const shards = results.shards;
  if (shards) {
    const n = shards.shards.length;
    const hosts = shards.hosts.length;
    const line =
      `${n} shard${n === 1 ? "" : "s"} of ${shards.count} on ${hosts} host${hosts === 1 ? "" : "s"} ` +
      `(${shards.hosts.join(", ")}), merged exactly`;
    const late = Math.max(0, ...shards.shards.map((s) => s.lateMs ?? 0));
    return line +
      (shards.partial
        ? `; PARTIAL: segments ${shards.missing.map((i) => `${i}/${shards.count}`).join(", ")} missing`
        : "") +
      (late > 0 ? `; latest start ${late} ms after the shared start` : "") +
      (shards.unaligned ? "; shards did not start together (intervals aligned to the nearest)" : "");
  }
  const segment = results.runs.find((r) => r.segment)?.segment;
  if (!segment) return null;
  return `segment ${segment.index}/${segment.count} only: one shard of a split load; ` +
    "merge the shards first (loadlab merge shard-*.json -o results.json)";
}
