/**
 * @module
 * The open model's start-up table, run after run. nginx (one worker, `return 200`, pinned
 * to CPU 0) and `loadlab attack URL -R 10000 -d 5s --json` (pinned to CPU 1), N runs in a row; per run
 * the connects, the pool opened before t0, the most connects in flight at once, late and server-bound
 * sends, p99, max, the first 250 ms interval's p99 and the verdict, then the median p99 and the worst
 * run's p99 as a multiple of it (the goal: within 3x, no run generator-bound at 10k/s).
 * `--loadlab DIR` runs another tree's main.ts (e.g. an older commit extracted with `git archive`);
 * repeated, the trees take turns run by run on the same nginx (so a busy machine's drift hits both
 * alike) and each gets its own table; fields a tree does not report print as "-".
 *
 *   deno run -A bench/open_start.ts [--runs 10] [--rate 10000] [--duration 5s] [--loadlab DIR]...
 *                                   [--target URL] [--extra "--no-generator-warmup --pre-connect 0"]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { UsageError } from "../cli/usage_error.ts";
import { startNginx } from "./nginx.ts";
import { findProgram } from "../system/path_lookup.ts";

const FLAGS = [
  { long: "runs", takesValue: true, example: "10" },
  { long: "rate", short: "R", takesValue: true, example: "10000" },
  { long: "duration", short: "d", takesValue: true, example: "5s" },
  { long: "loadlab", takesValue: true, repeatable: true, example: "/tmp/loadlab-before" },
  { long: "target", takesValue: true, example: "http://127.0.0.1:8080/" },
  { long: "extra", takesValue: true, example: '"--pre-connect 0"' },
  { long: "help", short: "h", takesValue: false },
];

/** One run's row; null where the tree under test does not report the field. */
interface Row {
  connects: number;
  preConnected: number | null;
  maxConnectsInFlight: number | null;
  lateSends: number;
  serverBoundSends: number | null;
  droppedSends: number;
  p99Ms: number;
  maxMs: number;
  firstP99Ms: number;
  generatorBound: boolean;
  warmupMs: number | null;
}

async function main(argv: string[]): Promise<number> {
  const raw = tokenize(argv, FLAGS);
  if (raw.values.has("help")) throw new UsageError("usage: see the @module comment of bench/open_start.ts");
  const flags = new FlagValues(raw, FLAGS);
  const runs = flags.positiveInt("runs") ?? 10;
  const rate = flags.text("rate") ?? "10000";
  const duration = flags.text("duration") ?? "5s";
  const givenTrees = flags.all("loadlab");
  const trees = givenTrees.length > 0 ? givenTrees : [new URL("..", import.meta.url).pathname];
  const extra = flags.text("extra")?.split(" ").filter((s) => s !== "") ?? [];
  const taskset = findProgram("taskset");
  const pin = (cpu: number) => (taskset ? [taskset, "-c", String(cpu)] : []);
  const given = flags.text("target");
  const nginx = given ? null : await startNginx(findProgram("nginx") ?? "nginx", pin(0));
  const url = given ?? nginx!.url;
  const rows: Row[][] = trees.map(() => []);
  const loads: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      for (const [k, tree] of trees.entries()) {
        const args = ["run", "-A", `${tree}/main.ts`, "attack", url, "-R", rate, "-d", duration, "--json"];
        rows[k].push(await attack([...pin(1), Deno.execPath(), ...args, ...extra]));
        loads.push(Deno.loadavg()[0]);
      }
      console.error(`round ${i + 1}/${runs} done`);
    }
  } finally {
    await nginx?.stop();
  }
  const loadRange = `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`;
  for (const [k, tree] of trees.entries()) {
    const what = `-R ${rate} -d ${duration} ${extra.join(" ")}`;
    console.log(`\nloadlab tree: ${tree}; ${what}; load average ${loadRange}`);
    console.log(renderTable(rows[k]));
  }
  return 0;
}

async function attack(argv: string[]): Promise<Row> {
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "inherit" })
    .output();
  if (!out.success) throw new Error(`${argv.join(" ")} exited with ${out.code}`);
  const run = JSON.parse(new TextDecoder().decode(out.stdout));
  return {
    connects: run.connects,
    preConnected: run.preConnected ?? null,
    maxConnectsInFlight: run.maxConnectsInFlight ?? null,
    lateSends: run.lateSends,
    serverBoundSends: run.serverBoundSends ?? null,
    droppedSends: run.droppedSends,
    p99Ms: run.latencyMs.p99,
    maxMs: run.latencyMs.max,
    firstP99Ms: run.intervals[0]?.p99 ?? 0,
    generatorBound: run.generatorBound,
    warmupMs: run.generatorWarmupMs ?? null,
  };
}

/** The markdown table of the runs, then the median p99 and the worst run's multiple of it. */
export function renderTable(rows: Row[]): string {
  const dash = (v: number | null) => (v === null ? "-" : String(v));
  const ms = (v: number) => v.toFixed(1);
  const lines = [
    "| run | pre-connected | connects | max connects in flight | lateSends | serverBoundSends | dropped | p99 ms | max ms | first 250 ms p99 | generatorBound | generator warm-up ms |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map((r, i) =>
      `| ${i + 1} | ${dash(r.preConnected)} | ${r.connects} | ${
        dash(r.maxConnectsInFlight)
      } | ${r.lateSends} | ${dash(r.serverBoundSends)} | ${r.droppedSends} | ${ms(r.p99Ms)} | ${
        ms(r.maxMs)
      } | ${ms(r.firstP99Ms)} | ${r.generatorBound} | ${dash(r.warmupMs)} |`
    ),
  ];
  const sorted = rows.map((r) => r.p99Ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const worst = sorted.at(-1) ?? 0;
  const flagged = rows.filter((r) => r.generatorBound).length;
  lines.push(
    "",
    `median p99 ${ms(median)} ms, worst ${ms(worst)} ms (${(worst / Math.max(median, 1e-9)).toFixed(1)}x); ` +
      `generator-bound runs: ${flagged} of ${rows.length}`,
  );
  return lines.join("\n");
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (err) {
    console.error(`open_start: ${err instanceof Error ? err.message : String(err)}`);
    Deno.exit(2);
  }
}
