/**
 * @module
 * `deno task bench --h2`: loadlab's HTTP/2 client against h2load (nghttp2) on nginx serving h2 over TLS
 * (`listen ... ssl http2`, one worker, `return 200`, a throwaway certificate), both with the same
 * connections and streams per connection (`-c 50 -m 10` by default, h2load's flags), nginx pinned to
 * CPU 0 and each generator to CPU 1 as the engine bench pins. The tools take turns in interleaved rounds
 * (h2load, loadlab epoll, loadlab deno; then again), so a busy machine's load falls on all of them
 * alike; each round's ratio to h2load is kept, with the CPU time per request (the tool's user + system
 * time from this process's reaped-children times, start-up included) and the load average around it.
 * `bench/last_run_h2.json` keeps every round.
 *
 *   deno task bench --h2 [--duration 10s] [--connections 50] [--streams 10] [--rounds 3] [--tools ...]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { UsageError } from "../cli/usage_error.ts";
import { startNginx } from "./nginx.ts";
import { childrenCpuSec, pinning, runTool } from "./engine.ts";
import type { ToolRun } from "./tools.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";
import { findProgram } from "../system/path_lookup.ts";

const FLAGS = [
  { long: "h2", takesValue: false },
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
}

interface Row {
  round: number;
  tool: Tool;
  rps: number | null;
  cpuUsPerRequest: number | null;
  loadAvg: string;
  error?: string;
}

function parseArgs(argv: string[]): Options {
  const raw = tokenize(argv, FLAGS);
  if (raw.values.has("help") || raw.positionals.length > 0) {
    throw new UsageError(
      "usage: deno task bench --h2 [--duration 10s] [--connections 50] [--streams 10] [--rounds 3] " +
        `[--tools ${TOOLS.join(",")}]`,
    );
  }
  const flags = new FlagValues(raw, FLAGS);
  const names = flags.text("tools")?.split(",").map((s) => s.trim()) ?? [...TOOLS];
  const unknown = names.filter((n) => !(TOOLS as readonly string[]).includes(n));
  if (unknown.length) {
    throw new UsageError(`--tools: unknown ${unknown.join(", ")}; pick from ${TOOLS.join(",")}`);
  }
  return {
    durationSec: Math.max(1, Math.round((flags.positiveDurationMs("duration") ?? 10_000) / 1_000)),
    connections: flags.positiveInt("connections") ?? 50,
    streams: flags.positiveInt("streams") ?? 10,
    rounds: flags.positiveInt("rounds") ?? 3,
    tools: TOOLS.filter((t) => names.includes(t)),
  };
}

/** h2load prints `finished in 10.00s, 12345.67 req/s, 1.23MB/s`. */
export function parseH2loadRps(stdout: string): number {
  const match = /finished in [\d.]+s, ([\d.]+) req\/s/.exec(stdout);
  return match ? Number(match[1]) : NaN;
}

function plan(tool: Tool, url: string, o: Options, caFile: string): ToolRun {
  if (tool === "h2load") {
    return {
      argv: ["h2load", "-c", `${o.connections}`, "-m", `${o.streams}`, "-D", `${o.durationSec}`, url],
      parseRps: (stdout) => Promise.resolve(parseH2loadRps(stdout)),
    };
  }
  const mainTs = new URL("../main.ts", import.meta.url).pathname;
  const transport = tool === "loadlab-epoll" ? "epoll" : "deno";
  return {
    argv: [Deno.execPath(), "run", "-A", mainTs, "attack", url, "--h2", "--streams", `${o.streams}`]
      .concat(["-c", `${o.connections}`, "-d", `${o.durationSec}s`, "--workers", "1"])
      .concat(["--transport", transport, "--cacert", caFile, "--json", "--no-live"]),
    parseRps: (stdout) => Promise.resolve(Number(JSON.parse(stdout).rps)),
  };
}

function loadAvg(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? NaN
    : s.length % 2
    ? s[(s.length - 1) / 2]
    : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function measureRound(
  round: number,
  url: string,
  o: Options,
  pin: string[],
  caFile: string,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const tool of o.tools) {
    const before = loadAvg();
    try {
      const cpuBefore = childrenCpuSec();
      const { rps } = await runTool(plan(tool, url, o, caFile), pin, (o.durationSec + 60) * 1_000);
      const cpuAfter = childrenCpuSec();
      const requests = rps * o.durationSec;
      const cpuUs = cpuBefore === null || cpuAfter === null || requests <= 0
        ? null
        : ((cpuAfter - cpuBefore) * 1e6) / requests;
      rows.push({ round, tool, rps, cpuUsPerRequest: cpuUs, loadAvg: `${before} -> ${loadAvg()}` });
    } catch (err) {
      rows.push({ round, tool, rps: null, cpuUsPerRequest: null, loadAvg: before, error: String(err) });
    }
    const r = rows.at(-1)!;
    console.log(
      `  round ${round} ${tool}: ${r.rps === null ? `FAILED ${r.error}` : `${Math.round(r.rps)} req/s`}` +
        `${
          r.cpuUsPerRequest === null ? "" : `, ${r.cpuUsPerRequest.toFixed(1)} us CPU/req`
        }, load ${r.loadAvg}`,
    );
  }
  return rows;
}

/** Per tool: median req/s, median ratio to h2load over the rounds (each round's own), median CPU/req. */
function summarize(rows: Row[], o: Options): Array<Record<string, unknown>> {
  return o.tools.map((tool) => {
    const mine = rows.filter((r) => r.tool === tool && r.rps !== null);
    const ratios = mine.flatMap((r) => {
      const ref = rows.find((x) => x.round === r.round && x.tool === "h2load")?.rps;
      return ref ? [r.rps! / ref] : [];
    });
    return {
      tool,
      medianRps: Math.round(median(mine.map((r) => r.rps!))),
      ratioToH2load: ratios.length ? Number(median(ratios).toFixed(2)) : null,
      ratiosByRound: ratios.map((x) => Number(x.toFixed(2))),
      medianCpuUsPerRequest: Number(median(mine.flatMap((r) => r.cpuUsPerRequest ?? [])).toFixed(1)),
    };
  });
}

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  if (!findProgram("h2load")) o.tools = o.tools.filter((t) => t !== "h2load");
  const pin = await pinning();
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-h2-" });
  const pair = await selfSignedPair();
  await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
  await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem + pair.caPem);
  await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem, { mode: 0o600 });
  const nginx = await startNginx(findProgram("nginx") ?? "/usr/sbin/nginx", pin.target, {
    directives: `ssl_certificate ${dir}/cert.pem; ssl_certificate_key ${dir}/key.pem; ssl_protocols TLSv1.3;`,
  }, true);
  try {
    console.log(
      `h2 bench: nginx h2 over TLS at ${nginx.url}, -c ${o.connections} -m ${o.streams}, ${o.durationSec}s, ` +
        `${o.rounds} interleaved rounds; ${pin.note}`,
    );
    const rows: Row[] = [];
    for (let round = 1; round <= o.rounds; round++) {
      rows.push(...await measureRound(round, nginx.url, o, pin.generator, `${dir}/ca.pem`));
    }
    const summary = summarize(rows, o);
    console.table(summary);
    const out = new URL("./last_run_h2.json", import.meta.url);
    const record = {
      createdAt: new Date().toISOString(),
      target: "nginx 1 worker, return 200, h2 over TLS 1.3",
      pinning: pin.note,
      connections: o.connections,
      streams: o.streams,
      durationSec: o.durationSec,
      cores: navigator.hardwareConcurrency,
      summary,
      rounds: rows,
    };
    await Deno.writeTextFile(out, JSON.stringify(record, null, 2) + "\n");
    console.log(`wrote ${out.pathname}`);
    return rows.some((r) => r.error) ? 1 : 0;
  } finally {
    await nginx.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
