/**
 * @module
 * `deno task bench --crowd`: what a crowd of connections costs the generator, loadlab beside its peers at
 * 50, 1,000 and 10,000 connections and the largest crowd this process's open-file limit allows (the limit
 * less 50). Four loads, each on one worker pinned to CPU 1 against a target pinned to CPU 0: HTTP/1.1
 * keep-alive `GET /` on nginx (one worker, `return 200`) beside wrk; WebSocket hold (`--ws-ping 1s`: open
 * connections that ping once a second) and WebSocket echo (`hello`, closed loop) on the C echo server of
 * bench/ws.ts beside gcannon `--ws` (echo); and a session script of one `s.get("/")` on nginx. For each:
 * requests (or messages) per second, CPU per request (the tool's user + system time from this process's
 * reaped-children times, start-up and connects included), peak RSS (the tool's VmRSS read every 100 ms)
 * and RSS per connection added over the smallest crowd (what a connection costs, start-up aside). Rounds
 * interleave the tools, every other round in reverse, and the table gives medians; the load average before
 * and after goes with them into `bench/last_run_crowd.json`. A missing peer is skipped with the reason.
 * A crowd past the local ports one source address opens quickly (half of `ip_local_port_range`) is spread:
 * loadlab's over source addresses 127.0.0.1-127.0.0.N (`--source-addresses`, the script's
 * `sourceAddresses`); wrk, which binds no source address, runs as N processes at once, one per address
 * nginx also listens on, their rates and peak RSS summed; gcannon, whose echo server listens on 127.0.0.1
 * only, runs at what one address opens quickly, its row under that crowd.
 *
 *   deno task bench --crowd [--duration 8s] [--rounds 2] [--crowds 50,1000,10000,max]
 *                           [--loads http1,ws-hold,ws-echo,script]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { UsageError } from "../cli/usage_error.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";
import { median } from "../results/stats.ts";
import { startNginx } from "./nginx.ts";
import { pinning } from "./tool_run.ts";
import { buildServer, findGcannon, loadlabV8Flags } from "./ws.ts";
import { loadAvg } from "./h2.ts";
import { readLocalPorts } from "../system/local_ports.ts";
import { quickPortsOf } from "../runner/socket_budget.ts";
import { measured, sourcesFor, split } from "./crowd_measure.ts";

const FLAGS = [
  { long: "crowd", takesValue: false },
  { long: "duration", short: "d", takesValue: true, example: "8s" },
  { long: "rounds", takesValue: true, example: "2" },
  { long: "crowds", takesValue: true, example: "50,1000,10000,max" },
  { long: "loads", takesValue: true, example: "http1,ws-hold,ws-echo,script" },
];
const LOADS = ["http1", "ws-hold", "ws-echo", "script"] as const;
type Load = typeof LOADS[number];
/** Open files kept free below the limit: the tool's own (stdio, epoll, its runtime's). */
const FD_HEADROOM = 50;

interface Run {
  load: Load;
  tool: string;
  /** Its connections when not the crowd's (a peer held to what one source address opens quickly). */
  crowd?: number;
  /** The processes of the run, started together (one, or one per destination address). */
  argvs: string[][];
  /** Requests (messages) per second from one process's stdout (or the results it wrote); summed. */
  rps(stdout: string): number | Promise<number>;
}

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

/** The runs of one crowd: each load's peer (when found) and loadlab. */
async function runsFor(
  crowd: number,
  opts: { durationSec: number; loads: Load[] },
  urls: { http: string; ws: string; scriptFile: string },
  pin: string[],
): Promise<Array<Run | { load: Load; tool: string; skipped: string }>> {
  const d = `${opts.durationSec}s`;
  const localPorts = readLocalPorts();
  const sources = sourcesFor(crowd, localPorts);
  const addresses = Array.from({ length: sources }, (_, i) => `127.0.0.${i + 1}`);
  const spread = sources > 1 ? ["--source-addresses", `127.0.0.1-127.0.0.${sources}`] : [];
  const loadlab = [...pin, Deno.execPath(), "run", "-A", ...await loadlabV8Flags(), mainTs()];
  const attack = [...loadlab, "attack", "-c", `${crowd}`, "-d", d, "--workers", "1", "--json", "--no-live"]
    .concat(spread);
  const oneAddress = sources > 1 && localPorts !== null ? quickPortsOf(localPorts) : crowd;
  const json = (s: string) => Number(JSON.parse(s).rps);
  const wrk = findProgram("wrk");
  const gcannon = findGcannon();
  const runs: Array<Run | { load: Load; tool: string; skipped: string }> = [];
  const add = (load: Load, run: Omit<Run, "load"> | { tool: string; skipped: string }) => {
    if (opts.loads.includes(load)) runs.push({ load, ...run });
  };
  add(
    "http1",
    wrk === null ? { tool: "wrk", skipped: "wrk not on PATH (apt-get install wrk)" } : {
      tool: "wrk",
      argvs: split(crowd, sources).map((c, i) => [
        ...pin,
        wrk,
        "-t1",
        `-c${c}`,
        `-d${d}`,
        urls.http.replace("127.0.0.1", addresses[i]),
      ]),
      rps: (s) => Number(/Requests\/sec:\s+([\d.]+)/.exec(s)?.[1]),
    },
  );
  add("http1", { tool: "loadlab", argvs: [[...attack, urls.http]], rps: json });
  add("ws-hold", { tool: "loadlab", argvs: [[...attack, "--ws-ping", "1s", urls.ws]], rps: json });
  add(
    "ws-echo",
    gcannon.path === null ? { tool: "gcannon --ws", skipped: gcannon.why } : {
      tool: "gcannon --ws",
      crowd: oneAddress,
      argvs: [[
        ...pin,
        gcannon.path,
        urls.ws.replace("ws:", "http:"),
        "--ws",
        "--ws-msg",
        "hello",
        "-c",
        `${oneAddress}`,
      ].concat(["-t", "1", "-d", d, "--json"])],
      rps: (s) => Number(JSON.parse(s.slice(s.indexOf("{"))).rps),
    },
  );
  add("ws-echo", { tool: "loadlab", argvs: [[...attack, "--ws-message", "hello", urls.ws]], rps: json });
  if (opts.loads.includes("script")) {
    // A session script runs from an experiment file (`loadlab run`), its figures in results.json.
    const dir = urls.scriptFile.replace(/\/[^/]*$/, "");
    await Deno.writeTextFile(
      `${dir}/crowd_${crowd}.yaml`,
      `name: crowd-script\ntargets:\n  nginx: { url: "${urls.http}" }\nscript: ./one_get.js\nloads:\n` +
        `  closed: { model: connections, connections: ${crowd}, duration: ${d}, workers: 1` +
        (sources > 1 ? `, sourceAddresses: 127.0.0.1-127.0.0.${sources} }\n` : " }\n"),
    );
    const outDir = `${dir}/out_${crowd}`;
    runs.push({
      load: "script",
      tool: "loadlab",
      argvs: [[...loadlab, "run", `${dir}/crowd_${crowd}.yaml`, "--out-dir", outDir]],
      rps: async () => Number(JSON.parse(await Deno.readTextFile(`${outDir}/results.json`)).runs[0].rps),
    });
  }
  return runs;
}

function mainTs(): string {
  return new URL("../main.ts", import.meta.url).pathname;
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
  // wrk binds no source address: past one address's quick ports it spreads over destinations instead.
  const destinations = sourcesFor(top, readLocalPorts());
  const alsoListen = Array.from({ length: destinations - 1 }, (_, i) => `127.0.0.${i + 2}`);
  // nginx closes idle keep-alive connections once more than 15/16 of worker_connections are taken, which
  // at a crowd sized to the limit turns a closed loop into reconnects: twice the crowd per worker, and a
  // second worker (same core) when that passes the open-file limit.
  const perWorker = Math.min(2 * top + 64, limit - 64);
  const workers = perWorker * 15 / 16 < top + 64 ? 2 : 1;
  const nginx = await startNginx(nginxPath, pin.target, undefined, false, perWorker, workers, alsoListen);
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
    const urls = { http: nginx.url, ws: `ws://127.0.0.1:${wsPort}/ws`, scriptFile };
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
