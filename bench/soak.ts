/**
 * @module
 * `deno run -A bench/soak.ts`: the soak bench (not a CI test). It holds load for a long time
 * and watches the generator, not the target: a closed phase at full speed (`-c`, default 50) and an open
 * phase at a fixed rate (`--rate`, default 5,000/s), each `--duration` long (default 10m), against nginx
 * (bench/nginx.ts) pinned to CPU 0 with loadlab pinned to CPU 1, like bench/engine.ts. Every `--sample`
 * (10s) it reads VmRSS of the loadlab process from /proc/<pid>/status (main and worker isolates are
 * threads of that one process, so this is the whole generator) and the 1-minute load average. Per phase
 * it prints the series, the growth after the first minute (the goal is under 10%), and the size of the
 * phase's results.json with the one-hour size it implies (the run's fixed part, plus the mean size of an
 * interval times the intervals an hour holds).
 * `--v8-flags` and `--attack-arg` pass through to loadlab, to see what a heap cap or an option changes.
 *
 *   deno run -A bench/soak.ts [--duration 10m] [--connections 50] [--rate 5000] [--sample 10s]
 *     [--phases closed,open] [--target URL] [--v8-flags=--max-old-space-size=64] [--attack-arg ...]
 *     [--record bench/soak_last_run.json]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { UsageError } from "../cli/usage_error.ts";
import { BenchSetupError, startNginx } from "./nginx.ts";
import { pinning } from "./tool_run.ts";
import { findProgram } from "../system/path_lookup.ts";
import { RUN_ID_ENV } from "../targets/process.ts";

type PhaseName = "closed" | "open";

interface SoakOptions {
  durationMs: number;
  connections: number;
  ratePerSec: number;
  sampleMs: number;
  phases: PhaseName[];
  target?: string;
  v8Flags?: string;
  attackArgs: string[];
  record?: string;
}

/** One reading of the generator: seconds since its start, its RSS and the machine's load. */
interface Sample {
  atSec: number;
  rssMb: number;
  load1: number;
}

interface PhaseResult {
  phase: PhaseName;
  command: string;
  exitCode: number;
  samples: Sample[];
  /** RSS growth from the first sample at or after 60 s (or a quarter of the run, if shorter) to the last. */
  growthPct: number | null;
  growthFromSec: number | null;
  requests: number | null;
  rps: number | null;
  errors: Record<string, number>;
  resultsBytes: number;
  intervals: number;
  /** Most connections open at an interval's end: a pool grown by a stall holds memory too. */
  peakConnections: number;
  /** The run's fixed part plus its mean interval's bytes times the intervals an hour holds. */
  hourBytesEstimate: number;
}

const FLAGS = [
  { long: "duration", short: "d", takesValue: true, example: "10m" },
  { long: "connections", short: "c", takesValue: true, example: "50" },
  { long: "rate", short: "R", takesValue: true, example: "5000" },
  { long: "sample", takesValue: true, example: "10s" },
  { long: "phases", takesValue: true, example: "closed,open" },
  { long: "target", takesValue: true, example: "http://127.0.0.1:8080/" },
  { long: "v8-flags", takesValue: true, example: "--max-old-space-size=64" },
  { long: "attack-arg", takesValue: true, example: "--interval=1s" },
  { long: "record", takesValue: true, example: "bench/soak_last_run.json" },
  { long: "help", short: "h", takesValue: false },
];

const USAGE = "usage: deno run -A bench/soak.ts [--duration 10m] [--connections 50] [--rate 5000] " +
  "[--sample 10s] [--phases closed,open] [--target URL] [--v8-flags=...] [--attack-arg ARG ...] [--record PATH]";

function parseSoakArgs(argv: string[]): SoakOptions {
  const raw = tokenize(argv, FLAGS, {}, "soak");
  if (raw.values.has("help") || raw.positionals.length > 0) throw new UsageError(USAGE);
  const flags = new FlagValues(raw, FLAGS);
  const phases = (flags.text("phases") ?? "closed,open").split(",").map((p) => p.trim());
  const unknown = phases.filter((p) => p !== "closed" && p !== "open");
  if (unknown.length > 0) throw new UsageError(`--phases: unknown ${unknown.join(", ")}; use closed,open`);
  return {
    durationMs: flags.positiveDurationMs("duration") ?? 600_000,
    connections: flags.positiveInt("connections") ?? 50,
    ratePerSec: flags.positiveInt("rate") ?? 5000,
    sampleMs: flags.positiveDurationMs("sample") ?? 10_000,
    phases: phases as PhaseName[],
    target: flags.text("target"),
    v8Flags: flags.text("v8-flags"),
    attackArgs: flags.all("attack-arg"),
    record: flags.path("record"),
  };
}

/** VmRSS of `pid` in MB, null once the process is gone. */
function rssMb(pid: number): number | null {
  try {
    const row = Deno.readTextFileSync(`/proc/${pid}/status`).split("\n").find((l) => l.startsWith("VmRSS:"));
    return row ? Number(row.split(/\s+/)[1]) / 1024 : null;
  } catch {
    return null;
  }
}

function loadAverage1(): number {
  return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
}

/** The loadlab command line of one phase (without the taskset prefix). */
function attackArgv(opts: SoakOptions, phase: PhaseName, url: string, outFile: string): string[] {
  const load = phase === "closed" ? ["-c", `${opts.connections}`] : ["-R", `${opts.ratePerSec}`];
  const v8 = opts.v8Flags ? [`--v8-flags=${opts.v8Flags}`] : [];
  const main = new URL("../main.ts", import.meta.url).pathname;
  return [
    Deno.execPath(),
    "run",
    "-A",
    ...v8,
    main,
    "attack",
    url,
    ...load,
    "-d",
    `${opts.durationMs}ms`,
    "-q",
    "--out",
    outFile,
    ...opts.attackArgs,
  ];
}

/** Runs one phase, sampling the generator's RSS until it exits. */
async function runPhase(
  opts: SoakOptions,
  phase: PhaseName,
  url: string,
  pin: string[],
): Promise<PhaseResult> {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-soak-" });
  const outFile = `${dir}/results.json`;
  const argv = [...pin, ...attackArgv(opts, phase, url, outFile)];
  console.log(`\n${phase}: ${argv.join(" ")}`);
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1", [RUN_ID_ENV]: `soak-${Deno.pid}` },
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const samples = await sampleUntilExit(child, opts.sampleMs, opts.durationMs);
  const status = await child.status;
  if (!status.success) console.log(`  loadlab exited ${status.code}: ${(await stderr).trim().slice(-300)}`);
  try {
    return summarize(phase, argv.join(" "), status.code, samples, await Deno.readTextFile(outFile));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Samples every `everyMs` from the spawn up to `untilMs` (taskset execs loadlab in place, so the pid is
 * loadlab's); the process's start-up makes the last sample fall just before the load ends.
 */
async function sampleUntilExit(
  child: Deno.ChildProcess,
  everyMs: number,
  untilMs: number,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  let exited = false;
  child.status.then(() => exited = true);
  const startMs = performance.now();
  // Samples stop at the load's end: writing results.json afterwards is not the soak.
  for (let next = everyMs; !exited && next <= untilMs; next += everyMs) {
    await Promise.race([
      child.status,
      new Promise((r) => setTimeout(r, next - (performance.now() - startMs))),
    ]);
    const rss = exited ? null : rssMb(child.pid);
    if (rss === null) break;
    const sample = { atSec: Math.round(next / 1000), rssMb: rss, load1: loadAverage1() };
    samples.push(sample);
    console.log(`  ${sample.atSec}s  RSS ${rss.toFixed(1)} MB  load ${sample.load1}`);
  }
  return samples;
}

/** Growth from the first sample at or after min(60 s, a quarter of the run) to the last sample. */
export function growthAfterFirstMinute(samples: Sample[]): { pct: number; fromSec: number } | null {
  const lastSec = samples.at(-1)?.atSec ?? 0;
  const fromSec = Math.min(60, lastSec / 4);
  const base = samples.find((s) => s.atSec >= fromSec);
  const last = samples.at(-1);
  if (!base || !last || base === last) return null;
  return { pct: ((last.rssMb - base.rssMb) / base.rssMb) * 100, fromSec: base.atSec };
}

function summarize(phase: PhaseName, command: string, exitCode: number, samples: Sample[], json: string) {
  const run = JSON.parse(json).runs?.[0] ?? {};
  const intervals: number = run.intervals?.length ?? 0;
  const intervalMs: number = run.config?.intervalMs ?? 250;
  const resultsBytes = new TextEncoder().encode(json).length;
  // The run's own part (totals, run histograms, config) is paid once; the intervals grow with time.
  const intervalBytes = new TextEncoder().encode(JSON.stringify(run.intervals ?? [])).length;
  const perIntervalBytes = intervals > 0 ? intervalBytes / intervals : 0;
  const growth = growthAfterFirstMinute(samples);
  return {
    phase,
    command,
    exitCode,
    samples,
    growthPct: growth?.pct ?? null,
    growthFromSec: growth?.fromSec ?? null,
    requests: run.requests ?? null,
    rps: run.rps ?? null,
    errors: run.errors ?? {},
    resultsBytes,
    intervals,
    peakConnections: Math.max(
      0,
      ...(run.intervals ?? []).map((iv: { connections: number }) => iv.connections),
    ),
    hourBytesEstimate: Math.round(resultsBytes - intervalBytes + perIntervalBytes * (3_600_000 / intervalMs)),
  } satisfies PhaseResult;
}

function printSummary(r: PhaseResult): void {
  const mb = (b: number) => (b / 1e6).toFixed(2);
  const series = r.samples.map((s) => `${s.atSec}s ${s.rssMb.toFixed(0)}`).join(", ");
  const growth = r.growthPct === null ? "n/a" : `${r.growthPct.toFixed(1)}% (from ${r.growthFromSec}s)`;
  console.log(
    `\n${r.phase}: exit ${r.exitCode}, ${r.requests} requests, ${Math.round(r.rps ?? 0)} req/s, ` +
      `errors ${JSON.stringify(r.errors)}, peak ${r.peakConnections} connections`,
  );
  console.log(`  RSS MB: ${series}`);
  console.log(`  growth after the first minute: ${growth}`);
  console.log(
    `  load average (1 min) min/max: ${Math.min(...r.samples.map((s) => s.load1))}/` +
      `${Math.max(...r.samples.map((s) => s.load1))}`,
  );
  console.log(
    `  results.json: ${mb(r.resultsBytes)} MB for ${r.intervals} intervals; one hour ≈ ` +
      `${mb(r.hourBytesEstimate)} MB (extrapolated per interval)`,
  );
}

async function main(argv: string[]): Promise<number> {
  const opts = parseSoakArgs(argv);
  const pin = await pinning();
  console.log(pin.note);
  let url = opts.target;
  let stop = () => Promise.resolve();
  if (url === undefined) {
    const nginx = findProgram("nginx");
    if (!nginx) {
      throw new BenchSetupError("nginx is not on PATH (apt-get install -y nginx), or pass --target");
    }
    const running = await startNginx(nginx, pin.target);
    url = running.url;
    stop = running.stop;
  }
  try {
    const results: PhaseResult[] = [];
    for (const phase of opts.phases) results.push(await runPhase(opts, phase, url, pin.generator));
    results.forEach(printSummary);
    if (opts.record) {
      const record = { createdAt: new Date().toISOString(), pinning: pin.note, options: opts, results };
      await Deno.writeTextFile(opts.record, JSON.stringify(record, null, 2) + "\n");
      console.log(`\nwrote ${opts.record}`);
    }
    return results.some((r) => r.exitCode !== 0) ? 1 : 0;
  } finally {
    await stop();
  }
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (err) {
    console.error(
      err instanceof UsageError ? err.message : `soak failed: ${err instanceof Error ? err.message : err}`,
    );
    Deno.exit(err instanceof UsageError ? 2 : 1);
  }
}
