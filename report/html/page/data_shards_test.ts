import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { ResultsFile, RunResult } from "../../../results/mod.ts";
import { shardsLine } from "./data.ts";

const environment = {} as ResultsFile["environment"];
const shard = (index: number, hostname: string) => ({ index, file: `s${index}.json`, hostname, environment });

Deno.test("shards line: merged, partial, lone shard, not split", () => {
  const merged = {
    runs: [],
    shards: {
      count: 4,
      hosts: ["a", "b"],
      shards: [0, 1, 2, 3].map((i) => shard(i, "ab"[i % 2])),
      missing: [],
      partial: false,
    },
  };
  assertEquals(shardsLine(merged), "4 shards of 4 on 2 hosts (a, b), merged exactly");
  const partial = {
    runs: [],
    shards: { ...merged.shards, shards: [shard(0, "a")], hosts: ["a"], missing: [1, 2, 3], partial: true },
  };
  assertEquals(
    shardsLine(partial),
    "1 shard of 4 on 1 host (a), merged exactly; PARTIAL: segments 1/4, 2/4, 3/4 missing",
  );
  const lone = { runs: [{ segment: { index: 2, count: 4, startAt: "" } } as RunResult] };
  assertEquals(shardsLine(lone)?.startsWith("segment 2/4 only"), true);
  assertEquals(shardsLine({ runs: [] }), null);
});
