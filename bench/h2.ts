/**
 * @module
 * `deno task bench --h2`: loadlab's HTTP/2 client against h2load (nghttp2), both with the same
 * connections and streams per connection (`-c 50 -m 10` by default, h2load's flags), on two targets
 * serving h2 over TLS by ALPN with a throwaway certificate: nginx (`listen ... ssl http2`, one worker,
 * `return 200`) and the built-in target (`loadlab serve`'s app with `tls: self-signed`, one process,
 * `GET /`: Deno.serve's h2). Each target is pinned to CPU 0 and each generator to CPU 1 as the engine
 * bench pins. The tools take turns in interleaved rounds (per round and target: h2load, loadlab epoll,
 * loadlab deno; then again), so a busy machine's load falls on all of them alike; each round's ratio to
 * h2load is kept, with the CPU time per request (the tool's user + system time from this process's
 * reaped-children times, start-up included), the target's CPU per request and how busy its core was
 * meanwhile (from /proc: near 100% the target set the rate, and a tool whose requests cost the target more
 * shows it there), and the load average around it. The targets stay up for the whole bench and are reaped
 * only at its end, so their CPU time never counts as a tool's.
 * `bench/last_run_h2.json` keeps every round.
 *
 *   deno task bench --h2 [--target nginx|builtin|both] [--duration 10s] [--connections 50] [--streams 10]
 *                        [--rounds 3] [--tools h2load,loadlab-epoll,loadlab-deno]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { UsageError } from "../cli/usage_error.ts";
import { perRequest, pinning, runTool } from "./tool_run.ts";
import type { ToolRun } from "./tools.ts";
import { findProgram } from "../system/path_lookup.ts";
import { type BenchTarget, startTargets, type TargetName, TARGETS } from "./h2_targets.ts";
import { median } from "../results/stats.ts";

const FLAGS = [
  { long: "h2", takesValue: false },
  { long: "target", takesValue: true, example: "builtin" },
  { long: "duration", short: "d", takesValue: true, example: "10s" },
  { long: "connections", short: "c", takesValue: true, example: "50" },
  { long: "streams", short: "m", takesValue: true, example: "10" },
  { long: "rounds", takesValue: true, example: "3" },
  { long: "tools", takesValue: true, example: "h2load,loadlab-epoll" },
  { long: "help", short: "h", takesValue: false },
];

const TOOLS = ["h2load", "loadlab-epoll", "loadlab-deno"] as const;
type Tool = typeof TOOLS[number];

interface Options {
  durationSec: number;
  connections: number;
  streams: number;
  rounds: number;
  tools: Tool[];
  targets: TargetName[];
}

interface Row {
  round: number;
  target: TargetName;
  tool: Tool;
  rps: number | null;
  /** nginx's own count per second in the middle of the run (bench/tool_run.ts), null elsewhere. */
  targetSteadyRps: number | null;
  cpuUsPerRequest: number | null;
  /** The target's CPU per request meanwhile (us), and its CPU over the duration (% of one core). */
  targetCpuUsPerRequest: number | null;
  targetBusyPct: number | null;
  loadAvg: string;
  error?: string;
}

const USAGE =
  "usage: deno task bench --h2 [--target nginx|builtin|both] [--duration 10s] [--connections 50] " +
  `[--streams 10] [--rounds 3] [--tools ${TOOLS.join(",")}]`;

function parseArgs(argv: string[]): Options {
  const raw = tokenize(argv, FLAGS);
  if (raw.values.has("help") || raw.positionals.length > 0) throw new UsageError(USAGE);
  const flags = new FlagValues(raw, FLAGS);
  const names = flags.text("tools")?.split(",").map((s) => s.trim()) ?? [...TOOLS];
  const unknown = names.filter((n) => !(TOOLS as readonly string[]).includes(n));
  if (unknown.length) {
    throw new UsageError(`--tools: unknown ${unknown.join(", ")}; pick from ${TOOLS.join(",")}`);
  }
  const target = flags.choice("target", ["nginx", "builtin", "both"] as const) ?? "both";
  return {
    durationSec: Math.max(1, Math.round((flags.positiveDurationMs("duration") ?? 10_000) / 1_000)),
    connections: flags.positiveInt("connections") ?? 50,
    streams: flags.positiveInt("streams") ?? 10,
    rounds: flags.positiveInt("rounds") ?? 3,
    tools: TOOLS.filter((t) => names.includes(t)),
    targets: target === "both" ? [...TARGETS] : [target],
  };
}
/**
 * h2load prints `finished in 10.00s, 12345.67 req/s, 1.23MB/s`; a run with failed requests or answers
 * other than 2xx is refused (a rate of errors would compare nothing).
 */
export function parseH2loadRps(stdout: string): number {
  const failed = /(\d+) failed, (\d+) errored/.exec(stdout);
  const codes = /status codes: \d+ 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(stdout);
  const bad = [...(failed?.slice(1) ?? []), ...(codes?.slice(1) ?? [])].reduce((n, x) => n + Number(x), 0);
  if (bad > 0) throw new Error(`h2load: ${bad} requests failed or not 2xx: ${failed?.[0]}; ${codes?.[0]}`);
  const match = /finished in [\d.]+s, ([\d.]+) req\/s/.exec(stdout);
  return match ? Number(match[1]) : NaN;
}

/** loadlab's `--json` line: its req/s, refused when anything failed, answered other than 2xx or spoke
 * other than `protocol`. */
export function parseLoadlabRps(stdout: string, protocol = "h2"): number {
  const r = JSON.parse(stdout);
  const notOk = Object.keys(r.statusCodes ?? {}).filter((code) => !code.startsWith("2"));
  if (Object.keys(r.errors ?? {}).length || notOk.length) {
    throw new Error(
      `loadlab: errors ${JSON.stringify(r.errors)}, status codes ${JSON.stringify(r.statusCodes)}`,
    );
  }
  if (r.protocol !== protocol) throw new Error(`loadlab spoke ${r.protocol}, not ${protocol}`);
  return Number(r.rps);
}

function plan(tool: Tool, url: string, o: Options, caFile: string): ToolRun {
  if (tool === "h2load") {
    return {
      argv: ["h2load", "-c", `${o.connections}`, "-m", `${o.streams}`, "-D", `${o.durationSec}`, url],
      parseRps: (stdout) => Promise.resolve().then(() => parseH2loadRps(stdout)),
    };
  }
  const mainTs = new URL("../main.ts", import.meta.url).pathname;
  const transport = tool === "loadlab-epoll" ? "epoll" : "deno";
  return {
    argv: [Deno.execPath(), "run", "-A", mainTs, "attack", url, "--h2", "--streams", `${o.streams}`]
      .concat(["-c", `${o.connections}`, "-d", `${o.durationSec}s`, "--workers", "1"])
      .concat(["--transport", transport, "--cacert", caFile, "--json", "--no-live"]),
    parseRps: (stdout) => Promise.resolve().then(() => parseLoadlabRps(stdout)),
  };
}

export function loadAvg(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

async function measureRound(round: number, target: BenchTarget, o: Options, pin: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const tool of o.tools) {
    const before = loadAvg();
    const base = { round, target: target.name, tool };
    try {
      const run = plan(tool, target.url, o, target.caFile);
      const measured = await runTool(run, pin, (o.durationSec + 60) * 1_000, target, o.durationSec);
      const { rps, cpuSec, targetCpuSec, targetSteadyRps } = measured;
      const costs = perRequest(rps, o.durationSec, cpuSec, targetCpuSec);
      rows.push({ ...base, rps, targetSteadyRps, ...costs, loadAvg: `${before} -> ${loadAvg()}` });
    } catch (err) {
      const none = {
        cpuUsPerRequest: null,
        targetCpuUsPerRequest: null,
        targetBusyPct: null,
        targetSteadyRps: null,
      };
      rows.push({ ...base, rps: null, ...none, loadAvg: before, error: String(err) });
    }
    const r = rows.at(-1)!;
    console.log(
      `  round ${round} ${target.name} ${tool}: ` +
        `${r.rps === null ? `FAILED ${r.error}` : `${Math.round(r.rps)} req/s`}` +
        `${r.targetSteadyRps === null ? "" : ` (steady at the target ${Math.round(r.targetSteadyRps)})`}` +
        `${r.cpuUsPerRequest === null ? "" : `, ${r.cpuUsPerRequest.toFixed(1)} us CPU/req`}` +
        `${
          r.targetCpuUsPerRequest === null || r.targetBusyPct === null
            ? ""
            : `; target ${r.targetCpuUsPerRequest.toFixed(1)} us/req, ${Math.round(r.targetBusyPct)}% busy`
        }, load ${r.loadAvg}`,
    );
  }
  return rows;
}

/**
 * Per tool on one target: median req/s, median ratio to h2load over the rounds (each round's own, on the
 * same target), median CPU/req.
 */
function summarize(rows: Row[], o: Options): Array<Record<string, unknown>> {
  return o.tools.map((tool) => {
    const mine = rows.filter((r) => r.tool === tool && r.rps !== null);
    // Each round's figure over h2load's in that round, where both have one.
    const ratiosOf = (pick: (r: Row) => number | null) =>
      mine.flatMap((r) => {
        const ref = rows.find((x) => x.round === r.round && x.tool === "h2load");
        const mineOf = pick(r);
        const refOf = ref === undefined ? null : pick(ref);
        return mineOf !== null && refOf ? [mineOf / refOf] : [];
      });
    const ratios = ratiosOf((r) => r.rps);
    const steadyRatios = ratiosOf((r) => r.targetSteadyRps);
    return {
      tool,
      medianRps: Math.round(median(mine.map((r) => r.rps!))),
      ratioToH2load: ratios.length ? Number(median(ratios).toFixed(2)) : null,
      ratiosByRound: ratios.map((x) => Number(x.toFixed(2))),
      steadyRatioToH2load: steadyRatios.length ? Number(median(steadyRatios).toFixed(2)) : null,
      steadyRatiosByRound: steadyRatios.map((x) => Number(x.toFixed(2))),
      medianCpuUsPerRequest: Number(median(mine.flatMap((r) => r.cpuUsPerRequest ?? [])).toFixed(1)),
      medianTargetCpuUsPerRequest: Number(
        median(mine.flatMap((r) => r.targetCpuUsPerRequest ?? [])).toFixed(1),
      ),
      medianTargetBusyPct: Math.round(median(mine.flatMap((r) => r.targetBusyPct ?? []))),
    };
  });
}

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  if (!findProgram("h2load")) o.tools = o.tools.filter((t) => t !== "h2load");
  const pin = await pinning();
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-h2-" });
  const targets = await startTargets(o.targets, dir, pin.target).catch(async (err) => {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw err;
  });
  try {
    const loadBefore = loadAvg();
    console.log(
      `h2 bench: -c ${o.connections} -m ${o.streams}, ${o.durationSec}s, ${o.rounds} interleaved rounds; ` +
        `${pin.note}; load average ${loadBefore}`,
    );
    for (const t of targets) console.log(`  ${t.name}: ${t.label} at ${t.url}`);
    const rows: Row[] = [];
    for (let round = 1; round <= o.rounds; round++) {
      for (const t of targets) rows.push(...await measureRound(round, t, o, pin.generator));
    }
    const runs = targets.map((t) => {
      const summary = summarize(rows.filter((r) => r.target === t.name), o);
      console.log(`\n${t.label}:`);
      console.table(summary);
      return { target: t.name, label: t.label, summary };
    });
    const out = new URL("./last_run_h2.json", import.meta.url);
    const record = {
      createdAt: new Date().toISOString(),
      pinning: pin.note,
      connections: o.connections,
      streams: o.streams,
      durationSec: o.durationSec,
      cores: navigator.hardwareConcurrency,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAvg(),
      targets: runs,
      rounds: rows,
    };
    await Deno.writeTextFile(out, JSON.stringify(record, null, 2) + "\n");
    console.log(`wrote ${out.pathname}`);
    return rows.some((r) => r.error) ? 1 : 0;
  } finally {
    for (const t of targets) await t.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
