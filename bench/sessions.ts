/**
 * @module
 * `deno task bench --sessions`: what templated requests and sessions cost the engine. Closed model, one
 * worker, against nginx (`return 200`, one worker, pinned to CPU 0) with the generator pinned to CPU 1:
 * the same request fixed (`GET /items/42`, `x-user: user42`) and templated (`GET /items/{{ id }}`,
 * `x-user: {{ name }}`, a CSV row per request), in interleaved rounds so a busy machine drifts both
 * alike; the goal is templated >= 0.9x fixed req/s (the median of the rounds' ratios). Beside it, a
 * capture-and-reuse flow against the built-in target (`POST /login` capturing the token, then `GET /me`
 * with it and the session cookie): sessions and requests per second, recorded, no goal. The load
 * average before and after goes with the numbers (`bench/last_run_sessions.json`). `--protocol h2c` asks the
 * same of the HTTP/2 client: nginx speaks h2c with prior knowledge and both sides run `--streams` streams per
 * connection (the templated side fills each HEADERS block in its stream's slot); the flow stays HTTP/1.1
 * (`bench/last_run_sessions_h2c.json`).
 *
 *   deno task bench --sessions [--duration 3s] [--rounds 5] [--connections 50] [--protocol h2c --streams 10]
 */
import { join } from "node:path";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { type DataTable, readDataFile } from "../scenarios/data_sources.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";
import { freePort, waitForPort } from "../system/ports.ts";
import { startNginx } from "./nginx.ts";
import { RequestMix } from "../runner/http/request.ts";
import { RequestPicker } from "../runner/http/request_picker.ts";
import { Feeder } from "../runner/load/feeder.ts";
import { readProcStat } from "../system/proc_stat.ts";
import { median } from "../results/stats.ts";
import { measureInPinnedChild } from "./tool_run.ts";

export interface SessionBenchOptions {
  durationSec: number;
  rounds: number;
  connections: number;
  /** The fixed and templated sides' protocol; the flow is HTTP/1.1 either way. */
  protocol: "http1" | "h2c";
  /** Streams per connection over h2c. */
  streams: number;
}

interface ChildPlan extends SessionBenchOptions {
  nginxUrl: string;
  appUrl: string;
  csv: string;
}

interface Round {
  fixedRps: number;
  templatedRps: number;
  /** This process's CPU (user + system, every worker thread) per request, microseconds. */
  fixedCpuUs: number | null;
  templatedCpuUs: number | null;
  ratio: number;
  flowSessionsPerSec: number;
  flowRps: number;
  flowFailed: number;
}

const loadAverage = () => {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
};

/** User + system CPU seconds of this process (all its threads: the load workers too), null off Linux. */
function ownCpuSec(): number | null {
  const stat = readProcStat("self");
  return stat === null ? null : stat.userSec + stat.systemSec;
}

/** One closed-model run of one worker; its requests per second (and the flow's counts). */
async function closed(plan: ChildPlan, url: string, extra: Record<string, unknown>) {
  const r = await runAttack(parseAttackConfig({
    url,
    model: "connections",
    connections: plan.connections,
    workers: 1,
    durationMs: plan.durationSec * 1000,
    intervalMs: 250,
    ...extra,
  }));
  return r;
}

/**
 * The engine's own cost of one request's bytes, without the network: ns per `pick` of the fixed request
 * (its pre-encoded bytes) and of the templated one (a row taken, segments and values copied), the best
 * of three runs of a million picks each.
 */
function pickCostNs(data: DataTable): { fixedNs: number; templatedNs: number } {
  const url = new URL("http://127.0.0.1:8080/");
  const feeder = new Feeder({ name: "users", ...data, order: "sequential", whenDone: "wrap" }, 0, 1);
  const header = (value: string): [string, string] => ["x-user", value];
  const fixedMix = new RequestMix(url, [{
    method: "GET",
    path: "/items/42",
    headers: [header("user42")],
    weight: 1,
  }]);
  const templatedMix = new RequestMix(
    url,
    [{ method: "GET", path: "/items/{{ id }}", headers: [header("{{ name }}")], weight: 1 }],
    0,
    data.columns,
  );
  const best = (picker: RequestPicker) => {
    let bestNs = Infinity;
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      let bytes = 0;
      for (let k = 0; k < 1_000_000; k++) bytes += picker.pick(1, null)!.length;
      if (bytes === 0) throw new Error("nothing picked");
      bestNs = Math.min(bestNs, ((performance.now() - t0) * 1e6) / 1_000_000);
    }
    return bestNs;
  };
  return {
    fixedNs: best(new RequestPicker(fixedMix, 1)),
    templatedNs: best(new RequestPicker(templatedMix, 1, feeder)),
  };
}

/** The measuring side, run pinned to the generator's CPU: interleaved rounds, JSON on stdout. */
async function child(plan: ChildPlan): Promise<void> {
  const table = readDataFile(plan.csv);
  const picks = pickCostNs(table);
  console.error(`pick cost: ${JSON.stringify(picks)}`);
  const data = {
    name: "users",
    columns: table.columns,
    rows: table.rows,
    order: "sequential",
    whenDone: "wrap",
  };
  const fixed = { requestMix: [{ method: "GET", path: "/items/42", headers: [["x-user", "user42"]] }] };
  const templated = {
    requestMix: [{ method: "GET", path: "/items/{{ id }}", headers: [["x-user", "{{ name }}"]] }],
    data,
  };
  const body = new TextEncoder().encode('{"user":"{{ name }}","password":"secret"}');
  const flow = {
    data,
    flows: [{
      name: "login-me",
      steps: [
        {
          request: { method: "POST", path: "/login", headers: [["content-type", "application/json"]], body },
          capture: [{ json: "$.token", as: "token" }],
        },
        { request: { method: "GET", path: "/me", headers: [["authorization", "Bearer {{ token }}"]] } },
      ],
    }],
  };
  const nginxSide = plan.protocol === "h2c" ? { protocol: "h2c", streams: plan.streams } : {};
  const rounds: Round[] = [];
  for (let k = 0; k < plan.rounds; k++) {
    // Alternate which side goes first, so neither always follows the other.
    const order = k % 2 === 0 ? [fixed, templated] : [templated, fixed];
    const rps = new Map<unknown, number>();
    const cpuUs = new Map<unknown, number | null>();
    for (const side of order) {
      const before = ownCpuSec();
      const r = await closed(plan, plan.nginxUrl, { ...side, ...nginxSide });
      const after = ownCpuSec();
      rps.set(side, r.rps);
      cpuUs.set(
        side,
        before === null || after === null || r.requests === 0 ? null : ((after - before) * 1e6) / r.requests,
      );
    }
    const f = await closed(plan, plan.appUrl, flow);
    const sessions = f.flows?.[0];
    rounds.push({
      fixedRps: rps.get(fixed)!,
      templatedRps: rps.get(templated)!,
      fixedCpuUs: cpuUs.get(fixed)!,
      templatedCpuUs: cpuUs.get(templated)!,
      ratio: rps.get(templated)! / rps.get(fixed)!,
      flowSessionsPerSec: (sessions?.completed ?? 0) / f.durationSec,
      flowRps: f.rps,
      flowFailed: sessions?.failed ?? 0,
    });
    console.error(`round ${k + 1}: ${JSON.stringify(rounds.at(-1))}`);
  }
  console.log(JSON.stringify({ rounds, picks }));
}

/** Starts nginx and the built-in target on CPU 0, runs the child on CPU 1, prints and records. */
export async function runSessionBench(opts: SessionBenchOptions): Promise<number> {
  const taskset = findProgram("taskset");
  const pinned = taskset !== undefined && navigator.hardwareConcurrency >= 2;
  const pinTarget = pinned ? [taskset!, "-c", "0"] : [];
  const pinGenerator = pinned ? [taskset!, "-c", "1"] : [];
  const nginxPath = findProgram("nginx") ?? (isExecutable("/usr/sbin/nginx") ? "/usr/sbin/nginx" : undefined);
  if (!nginxPath) throw new Error("nginx not found; apt-get install nginx");
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-sessions-" });
  const csv = join(dir, "users.csv");
  await Deno.writeTextFile(
    csv,
    "id,name\n" + Array.from({ length: 1000 }, (_, k) => `${k},user${k}`).join("\n") + "\n",
  );
  const nginx = await startNginx(nginxPath, pinTarget, undefined, opts.protocol === "h2c");
  const appPort = freePort();
  const main = new URL("../main.ts", import.meta.url).pathname;
  const serveArgv = [...pinTarget, Deno.execPath(), "run", "-A", main, "serve", "--port", String(appPort)];
  const app = new Deno.Command(serveArgv[0], { args: serveArgv.slice(1), stdout: "null", stderr: "null" })
    .spawn();
  const loadBefore = loadAverage();
  try {
    if (!(await waitForPort("127.0.0.1", appPort, 20_000))) throw new Error("built-in target did not listen");
    const plan: ChildPlan = { ...opts, nginxUrl: nginx.url, appUrl: `http://127.0.0.1:${appPort}`, csv };
    console.log(
      `sessions bench: ${opts.connections} connections${
        opts.protocol === "h2c" ? ` x ${opts.streams} h2c streams` : ""
      }, 1 worker, ${opts.durationSec}s x ${opts.rounds} ` +
        `interleaved rounds; ${
          pinned ? "target CPU 0, generator CPU 1" : "UNPINNED"
        }; load average ${loadBefore}`,
    );
    const { rounds, picks } = await measureInPinnedChild<
      { rounds: Round[]; picks: { fixedNs: number; templatedNs: number } }
    >(import.meta.url, pinGenerator, plan);
    const loadAfter = loadAverage();
    const summary = {
      fixedRpsMedian: median(rounds.map((r) => r.fixedRps)),
      templatedRpsMedian: median(rounds.map((r) => r.templatedRps)),
      ratioMedian: median(rounds.map((r) => r.ratio)),
      flowSessionsPerSecMedian: median(rounds.map((r) => r.flowSessionsPerSec)),
      flowRpsMedian: median(rounds.map((r) => r.flowRps)),
      fixedCpuUsMedian: median(rounds.map((r) => r.fixedCpuUs ?? NaN)),
      templatedCpuUsMedian: median(rounds.map((r) => r.templatedCpuUs ?? NaN)),
      pickFixedNs: picks.fixedNs,
      pickTemplatedNs: picks.templatedNs,
    };
    console.log(
      `\nfixed ${Math.round(summary.fixedRpsMedian)} req/s, templated ${
        Math.round(summary.templatedRpsMedian)
      } ` +
        `req/s: ${
          summary.ratioMedian.toFixed(3)
        }x (median of ${rounds.length} rounds' ratios; goal >= 0.9x)\n` +
        `login -> /me flow (built-in target): ${Math.round(summary.flowSessionsPerSecMedian)} sessions/s, ` +
        `${Math.round(summary.flowRpsMedian)} req/s\ngenerator CPU per request (medians): fixed ` +
        `${summary.fixedCpuUsMedian.toFixed(1)} us, templated ${
          summary.templatedCpuUsMedian.toFixed(1)
        } us\n` +
        `bytes of one HTTP/1.1 request (no network): fixed ` +
        `${picks.fixedNs.toFixed(0)} ns, templated ${
          picks.templatedNs.toFixed(0)
        } ns\nload average before ${loadBefore}, after ${loadAfter}`,
    );
    const record = {
      createdAt: new Date().toISOString(),
      pinned,
      protocol: opts.protocol,
      streams: opts.protocol === "h2c" ? opts.streams : 1,
      connections: opts.connections,
      durationSec: opts.durationSec,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
      summary,
      rounds,
    };
    const outPath = new URL(
      opts.protocol === "h2c" ? "./last_run_sessions_h2c.json" : "./last_run_sessions.json",
      import.meta.url,
    );
    await Deno.writeTextFile(outPath, JSON.stringify(record, null, 2) + "\n");
    console.log(`wrote ${outPath.pathname}`);
    return summary.ratioMedian >= 0.9 ? 0 : 1;
  } finally {
    try {
      app.kill("SIGTERM");
    } catch { /* already gone */ }
    await app.status;
    await nginx.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") await child(JSON.parse(Deno.args[1]));
  else {
    Deno.exit(
      await runSessionBench({ durationSec: 3, rounds: 5, connections: 50, protocol: "http1", streams: 1 }),
    );
  }
}
