/**
 * Scale-out end to end, on one machine as plain processes (all on 127.0.0.1, no network namespaces):
 * one built-in target, 4 `loadlab attack --segment i/4` processes with one shared `--start-at`, each
 * logging every request, then `loadlab merge`. The merged run holds exactly the configured count, and
 * its percentiles are those of every logged latency of the 4 shards together, within HDR precision;
 * a missing shard is named (merged only with --allow-partial), and `report` refuses shards side by side.
 * Then `run --segment` of an experiment on a `url:` target from 2 shards, merged run by run (a file
 * whose target loadlab would start is refused).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { runLoadlab, shardsOnTime, withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";

const SEGMENTS = 4;
const REQUESTS = 400;

/** Latencies (us) of a request log: end minus intended start, as the recorder measures them. */
async function loggedLatenciesUs(path: string): Promise<number[]> {
  const lines = (await Deno.readTextFile(path)).trimEnd().split("\n").slice(1);
  return lines.map((line) => {
    const [, startUs, endUs] = line.split(";").map(Number);
    return endUs - startUs;
  });
}

/** The value at percentile p of sorted values, as HdrHistogram defines it (the ceil(p% x n)-th). */
function percentileOf(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

Deno.test("4 segments with a shared start, merged: the configured count and the logs' percentiles", async () => {
  const target = await startLoadlab(["serve", "--port", "0"], /listening on (http:\/\/\S+)/);
  try {
    await withTempDir(async (dir) => {
      const shardFiles = Array.from({ length: SEGMENTS }, (_, i) => `${dir}/shard-${i}.json`);
      const readRun = async (i: number) =>
        (JSON.parse(await Deno.readTextFile(shardFiles[i])) as ResultsFile).runs[0];
      const { startAt, shards } = await shardsOnTime(SEGMENTS, (i, startAt) =>
        runLoadlab([
          "attack",
          `${target.url}/json`,
          ...["-n", String(REQUESTS), "-R", "400", "--segment", `${i}/${SEGMENTS}`, "--start-at", startAt],
          ...["--log", `${dir}/shard-${i}.csv`, "-o", shardFiles[i], "--threshold", "p99 < 5s"],
          "--quiet",
        ]), async (i) => [(await readRun(i)).segment?.lateMs ?? 0]);
      for (const i of shardFiles.keys()) {
        const run = await readRun(i);
        const late = `late ${run.segment?.lateMs} ms, dropped ${run.droppedSends}`;
        assertEquals(run.requests, REQUESTS / SEGMENTS, `shard ${i}: its share of the count (${late})`);
        assertEquals([run.segment?.index, run.segment?.count, run.segment?.startAt], [i, SEGMENTS, startAt]);
      }
      // The merge, a partial one refused and one allowed, and a report of two shards, at once: each
      // only reads the shards' files.
      const [merge, three, partial, side] = await Promise.all([
        runLoadlab(["merge", ...shardFiles, "-o", `${dir}/merged.json`, "--report", `${dir}/r.html`]),
        runLoadlab(["merge", ...shardFiles.slice(0, 3), "-o", `${dir}/partial.json`]),
        runLoadlab(["merge", ...shardFiles.slice(1), "--allow-partial", "-o", `${dir}/p.json`]),
        runLoadlab(["report", ...shardFiles.slice(0, 2), "-o", `${dir}/side.html`]),
      ]);
      assertEquals(merge.code, 0, merge.stderr);
      ok(merge.stdout.includes("PASS  p99 < 5s"), merge.stdout);
      const merged: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/merged.json`));
      const run = merged.runs[0];
      const what = `errors ${JSON.stringify(run.errors)}, dropped ${run.droppedSends}, late ${run.lateSends}`;
      assertEquals(run.requests, REQUESTS, what);
      assertEquals(run.intervals.reduce((sum, iv) => sum + iv.requests, 0), REQUESTS);
      assertEquals(merged.shards?.shards.length, SEGMENTS);
      const latencies = (await Promise.all(shards.map((_, i) => loggedLatenciesUs(`${dir}/shard-${i}.csv`))))
        .flat().sort((a, b) => a - b);
      assertEquals(latencies.length, REQUESTS);
      const keys = [["p50", 50], ["p90", 90], ["p99", 99], ["max", 100]] as const;
      for (const [key, p] of keys) {
        const exactMs = percentileOf(latencies, p) / 1000;
        // 3 significant digits (0.1%, twice for bucket edges) plus the log's 1 us rounding.
        const tolerance = exactMs * 0.002 + 0.002;
        ok(
          Math.abs(run.latencyMs[key] - exactMs) <= tolerance,
          `${key}: merged ${run.latencyMs[key]} ms, logs ${exactMs} ms (+- ${tolerance})`,
        );
      }
      const html = await Deno.readTextFile(`${dir}/r.html`);
      ok(html.includes(`4 shards of 4 on 1 host`), "the report says how many shards and hosts");
      // Three of four: refused, the missing one named; merged with --allow-partial, marked.
      assertEquals(three.code, 2);
      ok(three.stderr.includes("missing segment 3/4"), three.stderr);
      assertEquals(partial.code, 0, partial.stderr);
      const p: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/p.json`));
      assertEquals([p.shards?.partial, p.shards?.missing, p.runs[0].requests], [true, [0], 300]);
      // Shards side by side are not a merge: report says so.
      assertEquals(side.code, 2);
      ok(side.stderr.includes("merge them first"), side.stderr);
    });
  } finally {
    target.child.kill("SIGINT");
    await target.done;
  }
});

Deno.test("run --segment: an experiment on a url: target from 2 shards, merged run by run", async () => {
  const target = await startLoadlab(["serve", "--port", "0"], /listening on (http:\/\/\S+)/);
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/split.yaml`,
        `name: split
targets:
  app: { url: "${target.url}" }
requests: [/json]
loads:
  fixed: { model: count, requests: 301, connections: 4 }
  open: { model: rate, rate: 200, duration: 1s }
thresholds: ["p99 < 5s"]
`,
      );
      await shardsOnTime(
        2,
        (i, startAt) =>
          runLoadlab([
            "run",
            `${dir}/split.yaml`,
            "--segment",
            `${i}/2`,
            "--start-at",
            startAt,
            "--out-dir",
            `${dir}/s${i}`,
          ]),
        async (i) => {
          const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/s${i}/results.json`));
          return results.runs.map((r) => r.segment?.lateMs ?? 0);
        },
      );
      const shard: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/s0/results.json`));
      assertEquals(
        shard.thresholds.map((t) => t.pending),
        [true, true],
        "a shard's gates wait for the merge",
      );
      const builtin = (await Deno.readTextFile(`${dir}/split.yaml`)).replace(
        /app: \{ url: [^}]+\}/,
        "app: { kind: builtin }",
      );
      await Deno.writeTextFile(`${dir}/builtin.yaml`, builtin);
      // The merge and a shard of a file whose target loadlab would start (refused), at once.
      const [merge, refused] = await Promise.all([
        runLoadlab(["merge", `${dir}/s0/results.json`, `${dir}/s1/results.json`, "-o", `${dir}/m.json`]),
        runLoadlab(["run", `${dir}/builtin.yaml`, "--segment", "0/2", "--out-dir", `${dir}/b`]),
      ]);
      assertEquals(merge.code, 0, merge.stderr);
      const merged: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/m.json`));
      assertEquals(merged.runs.map((r) => [r.name, r.requests]), [["app/fixed", 301], ["app/open", 200]]);
      assertEquals(merged.thresholds.map((t) => [t.run, t.ok]), [["app/fixed", true], ["app/open", true]]);
      assertEquals(merged.shards?.unaligned, undefined, "later runs start on the interval grid");
      assertEquals(refused.code, 2);
      ok(refused.stderr.includes("--segment needs url: targets"), refused.stderr);
    });
  } finally {
    target.child.kill("SIGINT");
    await target.done;
  }
});
