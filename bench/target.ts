/**
 * @module
 * Benchmark of the built-in target's hot path: `/json` of the built-in target against bare `Deno.serve`
 * servers answering the same bytes with the same headers in each of the forms a handler can build its
 * answer (a string body, a `Uint8Array` body, a shared `Response` cloned, a pre-built `Headers`), each
 * pinned to CPU 0 with taskset, and wrk pinned to CPU 1 (`taskset -c 1 wrk -t1 -c50 -dNs`). The built-in
 * target is compared with whichever bare form costs the least CPU per request in this very run, not
 * with one chosen ahead, and the bench says which; a bare server that reads `req.url` (the
 * least routing costs) is measured beside them as a reference. Rounds visit every server in a rotating
 * order so a noisy neighbour hurts all alike; the verdict uses medians (goal: >= 0.97x the fastest bare
 * form in requests per CPU second). It also measures `/json` and the CPU-heavy `/fib/25` through the
 * Redis caching proxy (all hits after the first) against the built-in target directly: what the proxy
 * hop costs, and where caching pays.
 *
 * Run: `deno run -A bench/target.ts [--duration 5] [--rounds 8] [--warmup 2]`
 */
import { startTarget } from "../targets/start.ts";
import { ManagedProcess } from "../targets/process.ts";
import { findProgram } from "../system/path_lookup.ts";
import { readProcSample } from "../system/proc_stat.ts";
import { median } from "../results/stats.ts";

function flag(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}
const durationSec = flag("duration", 5);
const rounds = flag("rounds", 8);
const warmupSec = flag("warmup", 2);

const BARE_PRELUDE = `const text = JSON.stringify({ message: "Hello, World!" });
const serve = (handler) => Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("READY " + port) }, handler);
`;
/** Every way a bare handler can answer `/json`; all send the same status, headers and body bytes. */
const BARE_FORMS: Record<string, string> = {
  "string body": `serve(() => new Response(text, { headers: { "content-type": "application/json" } }));`,
  "Uint8Array body": `const bytes = new TextEncoder().encode(text);
serve(() => new Response(bytes, { headers: { "content-type": "application/json" } }));`,
  "string, pre-built Headers": `const headers = new Headers({ "content-type": "application/json" });
serve(() => new Response(text, { headers }));`,
  // Built from a Headers object: in Deno 2.9.6 a clone of `new Response(text, { headers: { "content-type":
  // ... } })` has no content-type at all (that constructor's fast path keeps the header outside the list
  // clone() copies), so it would send fewer bytes, and assertSameAnswer refuses it.
  "shared Response cloned": `const shared = new Response(text, {
  headers: new Headers({ "content-type": "application/json" }),
});
serve(() => shared.clone());`,
};
/**
 * Not a candidate but a reference: the fastest form whose handler takes the request and reads its URL,
 * the least any server answering more than one path must do. Deno.serve builds no `Request` at all for a
 * handler declared without parameters, so every bare form above skips what routing costs.
 */
const ROUTING_FLOOR = "string body, handler reads req.url";
const ROUTING_FLOOR_SOURCE = `serve((req) => req.url.endsWith("/json")
  ? new Response(text, { headers: { "content-type": "application/json" } })
  : new Response("not found", { status: 404 }));`;

interface Round {
  rps: number;
  /**
   * Server CPU time per request: less sensitive than req/s to neighbours stealing the load generator's core.
   */
  cpuUsPerRequest: number;
}

interface Side {
  name: string;
  url: string;
  /** Server-side processes whose CPU time is charged to this side. */
  pids: number[];
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

/** A bare server of one form, run by `deno run` from a file like any user's server. */
async function startBare(
  form: string,
  source: string,
  dir: string,
): Promise<Side & { stop(): Promise<void> }> {
  const file = `${dir}/${form.replace(/\W+/g, "_")}.js`;
  await Deno.writeTextFile(file, BARE_PRELUDE + source);
  const proc = ManagedProcess.spawn({
    name: `bare Deno.serve (${form})`,
    command: Deno.execPath(),
    args: ["run", "--quiet", "--allow-net", file],
    cpuAffinity: [0],
  });
  const port = await proc.waitForStdoutLine("READY ", 30_000);
  return {
    name: `bare, ${form}`,
    url: `http://127.0.0.1:${port}/json`,
    pids: [proc.pid],
    stop: () => proc.stop(),
  };
}

/** Same status, body bytes and content-type, or the comparison would be unfair. */
async function assertSameAnswer(a: string, b: string): Promise<void> {
  const [ra, rb] = await Promise.all([fetch(a), fetch(b)]);
  const [ta, tb] = await Promise.all([ra.text(), rb.text()]);
  const same = ra.status === rb.status && ta === tb &&
    ra.headers.get("content-type") === rb.headers.get("content-type");
  if (!same) throw new Error(`answers differ: ${a} -> ${ta}; ${b} -> ${tb}`);
}

const int = (x: number) => Math.round(x).toLocaleString("en-US");

function line(side: Side, rs: Round[]): string {
  const cpu = rs.map((r) => r.cpuUsPerRequest);
  return `  ${side.name.padEnd(38)} ${int(median(rs.map((r) => r.rps))).padStart(8)} req/s  ${
    median(cpu).toFixed(2).padStart(6)
  } us CPU/req  (rounds: ${cpu.map((x) => x.toFixed(2)).join(", ")})`;
}

/** `rounds` rounds visiting every side once, in an order that rotates by one each round; prints each side. */
async function interleave(sides: Side[]): Promise<Round[][]> {
  for (const side of sides.slice(1)) await assertSameAnswer(sides[0].url, side.url);
  for (const side of sides) await wrk(side.url, warmupSec);
  const results: Round[][] = sides.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < sides.length; k++) {
      const i = (k + r) % sides.length;
      results[i].push(await measure(sides[i].url, durationSec, sides[i].pids));
    }
  }
  sides.forEach((side, i) => console.log(line(side, results[i])));
  return results;
}

/** Ratio of `b` to `a` in requests per CPU second (median of each round's pair) and in median req/s. */
function ratios(a: Round[], b: Round[]): { cpu: number; rps: number; cheaperRounds: number } {
  const perRound = a.map((ra, r) => ra.cpuUsPerRequest / b[r].cpuUsPerRequest);
  return {
    cpu: median(perRound),
    rps: median(b.map((r) => r.rps)) / median(a.map((r) => r.rps)),
    cheaperRounds: perRound.filter((x) => x >= 1).length,
  };
}

function printRatio(a: Side, ra: Round[], b: Side, rb: Round[]): void {
  const x = ratios(ra, rb);
  console.log(
    `  ${b.name} / ${a.name}: ${x.cpu.toFixed(3)}x requests per CPU second (median of rounds; ` +
      `${x.cheaperRounds}/${ra.length} rounds at or above 1), ${x.rps.toFixed(3)}x req/s`,
  );
}

/**
 * Built-in `/json` against every bare form and the routing floor; the verdict is against the cheapest
 * bare form of this run.
 */
async function compareWithBare(builtin: Side, dir: string): Promise<void> {
  const bare = [];
  try {
    for (const [form, source] of Object.entries(BARE_FORMS)) bare.push(await startBare(form, source, dir));
    const floor = await startBare(ROUTING_FLOOR, ROUTING_FLOOR_SOURCE, dir);
    bare.push(floor);
    const results = await interleave([...bare, builtin]);
    const forms = Object.keys(BARE_FORMS).length;
    const cpu = results.slice(0, forms).map((rs) => median(rs.map((r) => r.cpuUsPerRequest)));
    const fastest = cpu.indexOf(Math.min(...cpu));
    console.log(`  fastest bare form this run: ${Object.keys(BARE_FORMS)[fastest]}`);
    printRatio(bare[fastest], results[fastest], builtin, results[bare.length]);
    printRatio(bare[fastest], results[fastest], floor, results[forms]);
    printRatio(floor, results[forms], builtin, results[bare.length]);
  } finally {
    for (const side of bare) await side.stop();
  }
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
      `${rounds} rotating rounds after ${warmupSec}s warm-up each; ${navigator.hardwareConcurrency} cores, ` +
      `load average ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`,
  );
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-" });
  const builtin = await startTarget({ kind: "builtin", cpuAffinity: [0] });
  const builtinPids = builtin.processes.map((p) => p.pid);
  const direct = (path: string): Side => ({
    name: "direct",
    url: `${builtin.url}${path}`,
    pids: builtinPids,
  });
  try {
    console.log("\n/json: built-in target vs bare Deno.serve in each form (same bytes, same headers)");
    await compareWithBare({ name: "built-in target", url: `${builtin.url}/json`, pids: builtinPids }, dir);
    if (findProgram("redis-server")) {
      const proxy = await startTarget({
        kind: "proxy",
        upstream: { url: builtin.url },
        cacheTtlSec: 600,
        cpuAffinity: [0],
      });
      const cached = (path: string): Side => ({
        name: "cached proxy",
        url: `${proxy.url}${path}`,
        pids: [proxy.processes[0].pid, proxy.redisPid ?? 0, ...builtinPids],
      });
      try {
        for (const path of ["/json", "/fib/25"]) {
          console.log(
            `\n${path}: through the Redis caching proxy (all hits) vs the built-in target directly`,
          );
          const [a, b] = [direct(path), cached(path)];
          const [ra, rb] = await interleave([a, b]);
          printRatio(a, ra, b, rb);
        }
        console.log(`  proxy counters: ${JSON.stringify(await proxy.stats())}`);
      } finally {
        await proxy.stop();
      }
    } else console.log("\n(cached proxy skipped: redis-server is not on PATH)");
  } finally {
    await builtin.stop();
    await Deno.remove(dir, { recursive: true });
  }
}
