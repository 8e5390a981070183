/**
 * @module
 * `deno task bench --crowd`: what a crowd of connections costs the generator, loadlab beside its peers at
 * 50, 1,000 and 10,000 connections and the largest crowd this process's open-file limit allows (the limit
 * less 50). Six loads (bench/crowd_runs.ts), each on one worker pinned to CPU 1 against a target pinned to
 * CPU 0: HTTP/1.1 keep-alive `GET /` on nginx (`return 200`) beside wrk; h2c, one stream per connection,
 * on nginx's prior-knowledge listener beside h2load; HTTPS (HTTP/1.1 over TLS 1.3, the epoll transport)
 * on nginx beside wrk; WebSocket hold (`--ws-ping 1s`: open connections that ping once a second) and
 * WebSocket echo (`hello`, closed loop) on the C echo server of bench/ws.ts beside gcannon `--ws` (echo);
 * and a session script of one `s.get("/")` on nginx. For each:
 * requests (or messages) per second, CPU per request (the tool's user + system time from this process's
 * reaped-children times, start-up and connects included), peak RSS (the tool's VmRSS read every 100 ms)
 * and RSS per connection added over the smallest crowd (what a connection costs, start-up aside). Rounds
 * interleave the tools, every other round in reverse, and the table gives medians; the load average before
 * and after goes with them into `bench/last_run_crowd.json`. A missing peer is skipped with the reason.
 * A crowd past the local ports one source address opens quickly (half of `ip_local_port_range`) is spread:
 * loadlab's over source addresses 127.0.0.1-127.0.0.N (`--source-addresses`, the script's
 * `sourceAddresses`); wrk and h2load, which bind no source address, run as N processes at once, one per
 * address nginx also listens on, their rates and peak RSS summed; gcannon, whose echo server listens on
 * 127.0.0.1 only, runs at what one address opens quickly, its row under that crowd. HTTPS opens its crowd
 * by TLS handshakes, a CPU's work each: give it a longer `--duration` than the others on a busy machine.
 *
 *   deno task bench --crowd [--duration 8s] [--rounds 2] [--crowds 50,1000,10000,max]
 *                           [--loads http1,h2c,https,ws-hold,ws-echo,script]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { UsageError } from "../cli/usage_error.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";
import { median } from "../results/stats.ts";
import { pinning } from "./tool_run.ts";
import { buildServer } from "./ws.ts";
import { loadAvg } from "./h2.ts";
import { measured } from "./crowd_measure.ts";
import { type Load, LOADS, runsFor, startCrowdNginx } from "./crowd_runs.ts";

const FLAGS = [
  { long: "crowd", takesValue: false },
  { long: "duration", short: "d", takesValue: true, example: "8s" },
  { long: "rounds", takesValue: true, example: "2" },
  { long: "crowds", takesValue: true, example: "50,1000,10000,max" },
  { long: "loads", takesValue: true, example: "http1,h2c,https,ws-hold,ws-echo,script" },
];
/** Open files kept free below the limit: the tool's own (stdio, epoll, its runtime's). */
const FD_HEADROOM = 50;

interface Row {
  round: number;
  load: Load;
  tool: string;
  crowd: number;
  rps: number | null;
  cpuUsPerRequest: number | null;
  peakRssMb: number | null;
  error?: string;
}

/** The soft open-file limit of this process (the tools inherit it), from /proc/self/limits. */
export function openFileLimit(limits = Deno.readTextFileSync("/proc/self/limits")): number {
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
  return m === null || m[1] === "unlimited" ? 1_048_576 : Number(m[1]);
}

/** `--crowds`: a comma list of connection counts; `max` is the open-file limit less the headroom. */
export function parseCrowds(text: string, limit: number): number[] {
  const max = limit - FD_HEADROOM;
  const crowds = text.split(",").map((s) => s.trim()).filter((s) => s !== "").map((s) => {
    const n = s === "max" ? max : Number(s);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--crowds: ${s} is not a connection count`);
    if (n > max) {
      throw new UsageError(
        `--crowds: ${n} connections need more open files than the limit (${limit}) allows; ` +
          `raise it (ulimit -n) or use max (${max})`,
      );
    }
    return n;
  });
  return [...new Set(crowds)].sort((a, b) => a - b);
}

/** One round: every crowd, every run, in turn (reversed on even rounds). */
async function round(
  n: number,
  crowds: number[],
  runsOf: (crowd: number) => ReturnType<typeof runsFor>,
  durationSec: number,
): Promise<Row[]> {
  const timeoutMs = (durationSec + 60) * 1_000;
  const rows: Row[] = [];
  for (const crowd of crowds) {
    const runs = await runsOf(crowd);
    if (n % 2 === 0) runs.reverse();
    for (const run of runs) {
      const base = {
        round: n,
        load: run.load,
        tool: run.tool,
        crowd: "crowd" in run ? run.crowd ?? crowd : crowd,
      };
      if ("skipped" in run) {
        if (n === 1) console.log(`  ${run.load} ${run.tool}: skipped (${run.skipped})`);
        continue;
      }
      try {
        const ran = await measured(run.argvs, timeoutMs);
        if ("error" in ran) throw Object.assign(new Error(ran.error), { peakRssMb: ran.peakRssMb });
        const { stdouts, cpuSec, peakRssMb } = ran;
        const rps = (await Promise.all(stdouts.map((s) => run.rps(s)))).reduce((a, b) => a + b, 0);
        const requests = rps * durationSec;
        rows.push({
          ...base,
          rps: Number.isFinite(rps) ? rps : null,
          cpuUsPerRequest: cpuSec === null || !(requests > 0) ? null : cpuSec * 1e6 / requests,
          peakRssMb,
        });
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        const peakRssMb = (err as { peakRssMb?: number | null }).peakRssMb ?? null;
        rows.push({ ...base, rps: null, cpuUsPerRequest: null, peakRssMb, error });
      }
      const r = rows.at(-1)!;
      console.log(
        `  c=${base.crowd} ${run.load} ${run.tool}: ${
          r.error ?? `${fmt(r.rps, 0)} req/s, ` +
              `${fmt(r.cpuUsPerRequest, 1)} us CPU/req, ${fmt(r.peakRssMb, 1)} MB peak RSS`
        }${spreadNote(run.argvs)}`,
      );
    }
  }
  return rows;
}

/** What a spread run was: loadlab's source addresses, or a peer's processes (one per destination). */
function spreadNote(argvs: string[][]): string {
  if (argvs.length > 1) return ` (${argvs.length} processes summed, one per destination address)`;
  const at = argvs[0].indexOf("--source-addresses");
  return at < 0 ? "" : ` (source addresses ${argvs[0][at + 1]})`;
}

function fmt(v: number | null | undefined, digits: number): string {
  return v === null || v === undefined || !Number.isFinite(v) ? "-" : v.toFixed(digits);
}

/** Medians per load, tool and crowd, with RSS per connection added over the smallest crowd (KB). */
export function summarize(rows: Row[]) {
  const keys = [...new Set(rows.map((r) => `${r.load}\t${r.tool}`))];
  return keys.flatMap((key) => {
    const [load, tool] = key.split("\t");
    const mine = rows.filter((r) => r.load === load && r.tool === tool);
    const crowds = [...new Set(mine.map((r) => r.crowd))].sort((a, b) => a - b);
    const med = (crowd: number, pick: (r: Row) => number | null) => {
      const values = mine.filter((r) => r.crowd === crowd).map(pick).filter((v): v is number => v !== null);
      return values.length ? median(values) : null;
    };
    const baseRss = med(crowds[0], (r) => r.peakRssMb);
    return crowds.map((crowd) => {
      const rss = med(crowd, (r) => r.peakRssMb);
      return {
        load,
        tool,
        crowd,
        rps: med(crowd, (r) => r.rps),
        cpuUsPerRequest: med(crowd, (r) => r.cpuUsPerRequest),
        peakRssMb: rss,
        rssKbPerAddedConnection: rss === null || baseRss === null || crowd === crowds[0]
          ? null
          : (rss - baseRss) * 1024 / (crowd - crowds[0]),
      };
    });
  });
}

export async function main(argv: string[]): Promise<number> {
  const flags = new FlagValues(tokenize(argv, FLAGS), FLAGS);
  const durationSec = Math.max(1, Math.round((flags.positiveDurationMs("duration") ?? 8_000) / 1_000));
  const rounds = flags.positiveInt("rounds") ?? 2;
  const limit = openFileLimit();
  const crowds = parseCrowds(flags.text("crowds") ?? "50,1000,10000,max", limit);
  const loads = (flags.text("loads") ?? LOADS.join(",")).split(",").map((s) => s.trim()) as Load[];
  const unknown = loads.filter((l) => !LOADS.includes(l));
  if (unknown.length) throw new UsageError(`--loads: unknown ${unknown.join(", ")}; pick from ${LOADS}`);
  const nginxPath = findProgram("nginx") ?? (isExecutable("/usr/sbin/nginx") ? "/usr/sbin/nginx" : null);
  if (nginxPath === null) throw new UsageError("nginx not found; apt-get install nginx");
  const pin = await pinning();
  const top = crowds.at(-1)!;
  console.log(
    `crowd bench: ${crowds.join(", ")} connections, ${durationSec}s per run, ${rounds} rounds; ` +
      `open-file limit ${limit}; ${pin.note}`,
  );
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-crowd-" });
  const nginx = await startCrowdNginx(nginxPath, pin.target, loads, top, limit, dir);
  const scriptFile = `${dir}/one_get.js`;
  await Deno.writeTextFile(scriptFile, 'export default async (s) => { await s.get("/"); };\n');
  // The echo server writes to peers that may have gone: a SIGPIPE must not end it mid-bench.
  const echo = [...pin.target, "sh", "-c", 'trap "" PIPE; exec "$0" "$1"', await buildServer(dir)];
  const wsPort = 18000 + Math.floor(Math.random() * 2000);
  const server = new Deno.Command(echo[0], { args: [...echo.slice(1), `${wsPort}`], stdout: "null" }).spawn();
  const loadBefore = loadAvg();
  const rows: Row[] = [];
  try {
    await new Promise((r) => setTimeout(r, 300));
    const urls = { ...nginx.urls, ws: `ws://127.0.0.1:${wsPort}/ws`, scriptFile };
    const runsOf = (crowd: number) => runsFor(crowd, { durationSec, loads }, urls, pin.generator);
    for (let n = 1; n <= rounds; n++) {
      console.log(`\nround ${n} of ${rounds}`);
      rows.push(...await round(n, crowds, runsOf, durationSec));
    }
  } finally {
    server.kill("SIGKILL");
    await server.status;
    await nginx.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  const summary = summarize(rows);
  printSummary(summary);
  const loadAfter = loadAvg();
  console.log(`load average: ${loadBefore} before, ${loadAfter} after`);
  const record = {
    createdAt: new Date().toISOString(),
    durationSec,
    rounds,
    openFileLimit: limit,
    pinning: pin.note,
    loadAverage: { before: loadBefore, after: loadAfter },
    summary,
    rows,
  };
  const out = new URL("./last_run_crowd.json", import.meta.url);
  await Deno.writeTextFile(out, JSON.stringify(record, null, 2) + "\n");
  console.log(`wrote ${out.pathname}`);
  return rows.some((r) => r.error) ? 1 : 0;
}

function printSummary(summary: ReturnType<typeof summarize>): void {
  console.log(
    "\nmedians: load, tool, connections, req/s, ratio to the peer, CPU us/req, peak RSS MB, KB/conn added",
  );
  for (const s of summary) {
    const peer = summary.find((p) =>
      p.load === s.load && p.crowd === s.crowd && p.tool !== s.tool && !p.tool.startsWith("loadlab")
    );
    const ratio = peer?.rps && s.rps !== null && s.tool.startsWith("loadlab")
      ? `${(s.rps / peer.rps).toFixed(2)}x`
      : "";
    console.log(
      [
        s.load,
        s.tool,
        s.crowd,
        fmt(s.rps, 0),
        ratio,
        fmt(s.cpuUsPerRequest, 2),
        fmt(s.peakRssMb, 1),
        fmt(s.rssKbPerAddedConnection, 1),
      ].join("\t"),
    );
  }
}
