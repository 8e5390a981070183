/**
 * @module
 * Benchmark of the built-in target's hot path: `/json` of the built-in target against a bare
 * `Deno.serve` answering the same bytes with the same headers, each pinned to CPU 0 with taskset, and
 * wrk pinned to CPU 1 (`taskset -c 1 wrk -t1 -c50 -dNs`). Rounds alternate between the two servers so a
 * noisy neighbour hurts both alike; the ratio of mean requests/s is printed (goal >= 0.97). It also
 * measures `/json` and the CPU-heavy `/fib/25` through the Redis caching proxy (all hits after the
 * first) against the built-in target directly: what the proxy hop costs, and where caching pays.
 *
 * Run: `deno run -A bench/target.ts [--duration 10] [--rounds 3] [--warmup 2]`
 */
import { startTarget } from "../targets/mod.ts";
import { findProgram, ManagedProcess } from "../targets/process.ts";
import { readProcSample } from "../targets/telemetry.ts";

function flag(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}
const durationSec = flag("duration", 10);
const rounds = flag("rounds", 3);
const warmupSec = flag("warmup", 2);

const BARE_SERVER = `
const body = new TextEncoder().encode(JSON.stringify({ message: "Hello, World!" }));
Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("READY " + port) },
  () => new Response(body, { headers: { "content-type": "application/json" } }));`;

interface Round {
  rps: number;
  /** Server CPU time per request: less sensitive than req/s to neighbours stealing the load generator's core. */
  cpuUsPerRequest: number;
}

function cpuSec(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + (readProcSample(pid)?.cpuSec ?? 0), 0);
}

/** One wrk run pinned to CPU 1, with the CPU time the server processes `pids` spent meanwhile. */
async function measure(url: string, seconds: number, pids: number[]): Promise<Round> {
  const before = cpuSec(pids);
  const { rps, requests } = await wrk(url, seconds);
  return { rps, cpuUsPerRequest: ((cpuSec(pids) - before) * 1e6) / requests };
}

/** Requests/s and request count of one wrk run pinned to CPU 1. */
async function wrk(url: string, seconds: number): Promise<{ rps: number; requests: number }> {
  const out = await new Deno.Command("taskset", {
    args: ["-c", "1", "wrk", "-t1", "-c50", `-d${seconds}s`, url],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]);
  if (!out.success || !Number.isFinite(rps)) {
    throw new Error(`wrk failed: ${text}${new TextDecoder().decode(out.stderr)}`);
  }
  if (/Non-2xx/.test(text)) throw new Error(`wrk saw non-2xx answers from ${url}:\n${text}`);
  return { rps, requests: Number(/(\d+) requests in/.exec(text)?.[1]) };
}

async function startBare(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const proc = ManagedProcess.spawn({
    name: "bare Deno.serve",
    command: Deno.execPath(),
    args: ["eval", "--quiet", BARE_SERVER],
    cpuAffinity: [0],
  });
  const port = await proc.waitForStdoutLine("READY ", 30_000);
  return { url: `http://127.0.0.1:${port}`, pid: proc.pid, stop: () => proc.stop() };
}

/** Same status, body bytes and content-type, or the comparison would be unfair. */
async function assertSameAnswer(a: string, b: string): Promise<void> {
  const [ra, rb] = await Promise.all([fetch(a), fetch(b)]);
  const [ta, tb] = await Promise.all([ra.text(), rb.text()]);
  const same = ra.status === rb.status && ta === tb &&
    ra.headers.get("content-type") === rb.headers.get("content-type");
  if (!same) throw new Error(`answers differ: ${a} -> ${ta}; ${b} -> ${tb}`);
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const int = (x: number) => Math.round(x).toLocaleString("en-US");

interface Side {
  name: string;
  url: string;
  /** Server-side processes whose CPU time is charged to this side. */
  pids: number[];
}

function line(side: Side, rounds: Round[]): string {
  const rps = rounds.map((r) => r.rps);
  const cpu = mean(rounds.map((r) => r.cpuUsPerRequest));
  return `  ${side.name.padEnd(20)} ${int(mean(rps)).padStart(8)} req/s  ${
    cpu.toFixed(2).padStart(6)
  } us CPU/req` +
    `  (rounds: ${rps.map(int).join(", ")})`;
}

/** Alternating rounds of two servers; prints mean req/s, CPU per request and the ratios. */
async function compare(a: Side, b: Side): Promise<void> {
  await assertSameAnswer(a.url, b.url);
  await wrk(a.url, warmupSec);
  await wrk(b.url, warmupSec);
  const ra: Round[] = [];
  const rb: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    ra.push(await measure(a.url, durationSec, a.pids));
    rb.push(await measure(b.url, durationSec, b.pids));
  }
  console.log(line(a, ra));
  console.log(line(b, rb));
  const rpsRatio = mean(rb.map((r) => r.rps)) / mean(ra.map((r) => r.rps));
  const cpuRatio = mean(ra.map((r) => r.cpuUsPerRequest)) / mean(rb.map((r) => r.cpuUsPerRequest));
  console.log(
    `  ${b.name} / ${a.name}: ${rpsRatio.toFixed(3)}x req/s, ${cpuRatio.toFixed(3)}x requests per CPU second`,
  );
}

if (import.meta.main) {
  for (const program of ["wrk", "taskset"]) {
    if (!findProgram(program)) {
      console.error(
        `bench/target.ts: ${program} is not on PATH (apt install ${
          program === "wrk" ? "wrk" : "util-linux"
        })`,
      );
      Deno.exit(1);
    }
  }
  console.log(
    `loadlab target benchmark: wrk -t1 -c50 -d${durationSec}s on CPU 1, servers on CPU 0, ` +
      `${rounds} alternating rounds after ${warmupSec}s warm-up each; ${navigator.hardwareConcurrency} cores`,
  );
  const bare = await startBare();
  const builtin = await startTarget({ kind: "builtin", cpuAffinity: [0] });
  try {
    console.log("\n/json: built-in target vs bare Deno.serve (same bytes, same headers)");
    await compare(
      { name: "bare Deno.serve", url: `${bare.url}/json`, pids: [bare.pid] },
      { name: "built-in target", url: `${builtin.url}/json`, pids: builtin.pids },
    );
    if (findProgram("redis-server")) {
      const proxy = await startTarget({
        kind: "proxy",
        upstream: { url: builtin.url },
        cacheTtlSec: 600,
        cpuAffinity: [0],
      });
      try {
        console.log("\n/json: through the Redis caching proxy (all hits) vs the built-in target directly");
        await compare(
          { name: "direct", url: `${builtin.url}/json`, pids: builtin.pids },
          {
            name: "cached proxy",
            url: `${proxy.url}/json`,
            pids: [proxy.pids[0], proxy.redisPid ?? 0, ...builtin.pids],
          },
        );
        console.log(
          "\n/fib/25 (CPU-heavy): through the Redis caching proxy (all hits) vs the built-in target directly",
        );
        await compare(
          { name: "direct", url: `${builtin.url}/fib/25`, pids: builtin.pids },
          {
            name: "cached proxy",
            url: `${proxy.url}/fib/25`,
            pids: [proxy.pids[0], proxy.redisPid ?? 0, ...builtin.pids],
          },
        );
        console.log(`  proxy counters: ${JSON.stringify(await proxy.stats())}`);
      } finally {
        await proxy.stop();
      }
    } else console.log("\n(cached proxy skipped: redis-server is not on PATH)");
  } finally {
    await builtin.stop();
    await bare.stop();
  }
}
