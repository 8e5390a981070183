/**
 * @module
 * `deno task bench --scripts`: what a session script costs the engine, and how it compares with k6 (whose
 * JavaScript default function runs on goja, an interpreter). Closed model, one worker, against nginx
 * (`return 200`, one worker, pinned to CPU 0), the generator pinned to CPU 1: the same `GET /` as a fixed
 * request and as a session script of one `s.get("/")`, and k6 running `http.get` in its default function
 * on the same core, in interleaved rounds (the order turns each round) so a busy machine drifts all
 * alike. Goals: script >= 0.6x the fixed request's req/s and >= 5x k6's (medians of the rounds' ratios);
 * k6 is skipped with the reason when /tmp/peers/go/k6 (`PEERS`) is absent. k6's own script (one
 * `http.get`) also runs converted on loadlab (`k6 script` side, runner/script/k6/): the same file under
 * both tools, goal >= 5x k6's req/s and, as a session script, >= 0.6x the fixed request's, with its CPU
 * per request; and k6's login + 3 requests script under both against the built-in target (goal >= 3x);
 * the exit status is 1 when a goal is missed. Beside it, a login + 3
 * requests session against the built-in target (sessions and requests per second, no goal). The load
 * average before and after goes with the numbers (`bench/last_run_scripts.json`; another connection count than
 * 50: `bench/last_run_scripts_c<count>.json`). `--connections 50,1000,10000` measures each count in turn (the
 * goal holds at every one); k6 runs up to K6_MAX_VUS virtual users (it needs megabytes a user).
 *
 *   deno task bench --scripts [--duration 3s] [--rounds 3] [--connections 50,1000,10000]
 */
import { join } from "node:path";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";
import { freePort, waitForPort } from "../system/ports.ts";
import { startNginx } from "./nginx.ts";
import { readProcStat } from "../system/proc_stat.ts";
import { median } from "../results/stats.ts";
import { parseK6Summary } from "./tools.ts";
import { measureInPinnedChild } from "./tool_run.ts";
import { sessionScriptPath } from "../runner/script/k6/k6_file.ts";

export interface ScriptBenchOptions {
  durationSec: number;
  rounds: number;
  connections: number;
}

interface ChildPlan extends ScriptBenchOptions {
  nginxUrl: string;
  appUrl: string;
  dir: string;
  k6: string | null;
}

interface Round {
  fixedRps: number;
  scriptRps: number;
  k6Rps: number | null;
  fixedCpuUs: number | null;
  scriptCpuUs: number | null;
  scriptVsFixed: number;
  scriptVsK6: number | null;
  /** k6's one-GET script converted and run on loadlab. */
  k6ScriptRps: number;
  k6ScriptCpuUs: number | null;
  /** Against the fixed request of the round (the script sessions' goal, >= 0.6x, holds for it too). */
  k6ScriptVsFixed: number;
  k6ScriptVsK6: number | null;
  /** The k6 login script converted on loadlab, and under k6 (null without k6), against the built-in target. */
  k6LoginRps: number;
  k6LoginOnK6Rps: number | null;
  loginSessionsPerSec: number;
  loginRps: number;
  loginFailed: number;
}

const PEERS = Deno.env.get("PEERS") ?? "/tmp/peers";
/** The most virtual users k6 is run with here (several MB of memory each). */
const K6_MAX_VUS = 1_000;

const loadAverage = () => {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
};

function ownCpuSec(): number | null {
  const stat = readProcStat("self");
  return stat === null ? null : stat.userSec + stat.systemSec;
}

const ONE_GET = 'export default async (s) => { await s.get("/"); };\n';
const LOGIN_3 = `export default async (s) => {
  const login = await s.post("/login", { json: { user: "u" + s.vu, password: "secret" }, name: "login" });
  const auth = { authorization: "Bearer " + login.json().token };
  await s.get("/me", { headers: auth, name: "me" });
  await s.get("/json", { name: "json" });
  await s.get("/me", { headers: auth, name: "me" });
};
`;
/** The login + 3 requests session as k6 writes it: run by k6 and converted on loadlab. */
const K6_LOGIN_3 = `import http from "k6/http";
export default function () {
  const base = __ENV.TARGET_URL;
  const login = http.post(base + "login", JSON.stringify({ user: "u" + __VU, password: "secret" }),
    { headers: { "content-type": "application/json" }, tags: { name: "login" } });
  const auth = { headers: { authorization: "Bearer " + login.json("token") }, tags: { name: "me" } };
  http.get(base + "me", auth);
  http.get(base + "json", { tags: { name: "json" } });
  http.get(base + "me", auth);
}
`;
const K6_ONE_GET = 'import http from "k6/http";\nexport const options = { discardResponseBodies: true };\n' +
  "export default function () { http.get(__ENV.TARGET_URL); }\n";

/** One closed-model run of one worker. */
function closed(plan: ChildPlan, url: string, extra: Record<string, unknown>) {
  return runAttack(parseAttackConfig({
    url,
    model: "connections",
    connections: plan.connections,
    workers: 1,
    durationMs: plan.durationSec * 1000,
    intervalMs: 250,
    ...extra,
  }));
}

/** k6 with `connections` virtual users for the duration, on this process's CPU; its req/s. */
async function k6Rps(plan: ChildPlan, file = "k6.js", url = `${plan.nginxUrl}/`): Promise<number> {
  const summary = join(plan.dir, "k6-summary.json");
  const script = join(plan.dir, file);
  const out = await new Deno.Command(plan.k6!, {
    args: ["run", "--quiet", "--vus", `${plan.connections}`, "--duration", `${plan.durationSec}s`]
      .concat(["--summary-export", summary, "-e", `TARGET_URL=${url}`, script]),
    stdout: "null",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error(`k6 failed (exit ${out.code})`);
  return parseK6Summary(await Deno.readTextFile(summary));
}

/** The measuring side, pinned to the generator's CPU: interleaved rounds, JSON on stdout. */
async function child(plan: ChildPlan): Promise<void> {
  const oneGet = { script: { path: join(plan.dir, "one_get.js") }, cookies: false };
  const fixed = { requestMix: [{ method: "GET", path: "/" }] };
  Deno.env.set("TARGET_URL", `${plan.nginxUrl}/`);
  const k6Script = { script: { path: sessionScriptPath(join(plan.dir, "k6.js")) }, cookies: false };
  const sides: Array<"fixed" | "script" | "k6script" | "k6"> = plan.k6 === null
    ? ["fixed", "script", "k6script"]
    : ["fixed", "script", "k6script", "k6"];
  const rounds: Round[] = [];
  for (let k = 0; k < plan.rounds; k++) {
    const order = [...sides.slice(k % sides.length), ...sides.slice(0, k % sides.length)];
    const rps: Record<string, number> = {};
    const cpuUs: Record<string, number | null> = {};
    for (const side of order) {
      if (side === "k6") {
        rps.k6 = await k6Rps(plan);
        continue;
      }
      const before = ownCpuSec();
      const r = await closed(
        plan,
        plan.nginxUrl,
        side === "fixed" ? fixed : side === "script" ? oneGet : k6Script,
      );
      const after = ownCpuSec();
      rps[side] = r.rps;
      cpuUs[side] = before === null || after === null || r.requests === 0
        ? null
        : ((after - before) * 1e6) / r.requests;
    }
    const login = await closed(plan, plan.appUrl, { script: { path: join(plan.dir, "login_3.js") } });
    Deno.env.set("TARGET_URL", `${plan.appUrl}/`);
    const k6Login = await closed(plan, plan.appUrl, {
      script: { path: sessionScriptPath(join(plan.dir, "k6_login.js")) },
    });
    Deno.env.set("TARGET_URL", `${plan.nginxUrl}/`);
    const k6LoginOnK6 = plan.k6 === null ? null : await k6Rps(plan, "k6_login.js", `${plan.appUrl}/`);
    rounds.push({
      fixedRps: rps.fixed,
      scriptRps: rps.script,
      k6Rps: rps.k6 ?? null,
      fixedCpuUs: cpuUs.fixed,
      scriptCpuUs: cpuUs.script,
      scriptVsFixed: rps.script / rps.fixed,
      scriptVsK6: rps.k6 === undefined ? null : rps.script / rps.k6,
      k6ScriptRps: rps.k6script,
      k6ScriptCpuUs: cpuUs.k6script,
      k6ScriptVsFixed: rps.k6script / rps.fixed,
      k6ScriptVsK6: rps.k6 === undefined ? null : rps.k6script / rps.k6,
      k6LoginRps: k6Login.rps,
      k6LoginOnK6Rps: k6LoginOnK6,
      loginSessionsPerSec: (login.flows?.[0]?.completed ?? 0) / login.durationSec,
      loginRps: login.rps,
      loginFailed: login.flows?.[0]?.failed ?? 0,
    });
    console.error(`round ${k + 1}: ${JSON.stringify(rounds.at(-1))}`);
  }
  console.log(JSON.stringify({ rounds }));
}

/** Starts nginx and the built-in target on CPU 0, runs the child on CPU 1, prints and records. */
export async function runScriptBench(opts: ScriptBenchOptions): Promise<number> {
  const taskset = findProgram("taskset");
  const pinned = taskset !== undefined && navigator.hardwareConcurrency >= 2;
  const pinTarget = pinned ? [taskset!, "-c", "0"] : [];
  const pinGenerator = pinned ? [taskset!, "-c", "1"] : [];
  const nginxPath = findProgram("nginx") ?? (isExecutable("/usr/sbin/nginx") ? "/usr/sbin/nginx" : undefined);
  if (!nginxPath) throw new Error("nginx not found; apt-get install nginx");
  const k6Path = `${PEERS}/go/k6`;
  const k6 = isExecutable(k6Path) && opts.connections <= K6_MAX_VUS ? k6Path : null;
  if (!isExecutable(k6Path)) {
    console.log(`k6 skipped: ${k6Path} missing (../shared/tools/install-peers.sh builds it)`);
  } else if (k6 === null) {
    console.log(`k6 skipped: ${opts.connections} virtual users (more than ${K6_MAX_VUS})`);
  }
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-scripts-" });
  await Deno.writeTextFile(join(dir, "one_get.js"), ONE_GET);
  await Deno.writeTextFile(join(dir, "login_3.js"), LOGIN_3);
  await Deno.writeTextFile(join(dir, "k6_login.js"), K6_LOGIN_3);
  await Deno.writeTextFile(join(dir, "k6.js"), K6_ONE_GET);
  const nginx = await startNginx(
    nginxPath,
    pinTarget,
    undefined,
    false,
    Math.max(4096, opts.connections + 16),
  );
  const appPort = freePort();
  const main = new URL("../main.ts", import.meta.url).pathname;
  const serveArgv = [...pinTarget, Deno.execPath(), "run", "-A", main, "serve", "--port", String(appPort)];
  const app = new Deno.Command(serveArgv[0], { args: serveArgv.slice(1), stdout: "null", stderr: "null" })
    .spawn();
  const loadBefore = loadAverage();
  try {
    if (!(await waitForPort("127.0.0.1", appPort, 20_000))) throw new Error("built-in target did not listen");
    const plan: ChildPlan = {
      ...opts,
      nginxUrl: nginx.url.replace(/\/$/, ""),
      appUrl: `http://127.0.0.1:${appPort}`,
      dir,
      k6,
    };
    console.log(
      `scripts bench: ${opts.connections} connections, 1 worker, ${opts.durationSec}s x ${opts.rounds} ` +
        `interleaved rounds; ${
          pinned ? "target CPU 0, generator CPU 1" : "UNPINNED"
        }; load average ${loadBefore}`,
    );
    const { rounds } = await measureInPinnedChild<{ rounds: Round[] }>(import.meta.url, pinGenerator, plan);
    const loadAfter = loadAverage();
    const med = (f: (r: Round) => number | null) => median(rounds.map((r) => f(r) ?? NaN));
    const summary = {
      fixedRpsMedian: med((r) => r.fixedRps),
      scriptRpsMedian: med((r) => r.scriptRps),
      k6RpsMedian: k6 === null ? null : med((r) => r.k6Rps),
      scriptVsFixedMedian: med((r) => r.scriptVsFixed),
      scriptVsK6Median: k6 === null ? null : med((r) => r.scriptVsK6),
      fixedCpuUsMedian: med((r) => r.fixedCpuUs),
      scriptCpuUsMedian: med((r) => r.scriptCpuUs),
      k6ScriptRpsMedian: med((r) => r.k6ScriptRps),
      k6ScriptCpuUsMedian: med((r) => r.k6ScriptCpuUs),
      k6ScriptVsFixedMedian: med((r) => r.k6ScriptVsFixed),
      k6ScriptVsK6Median: k6 === null ? null : med((r) => r.k6ScriptVsK6),
      k6LoginRpsMedian: med((r) => r.k6LoginRps),
      k6LoginVsK6Median: k6 === null ? null : med((r) => r.k6LoginRps / r.k6LoginOnK6Rps!),
      loginSessionsPerSecMedian: med((r) => r.loginSessionsPerSec),
      loginRpsMedian: med((r) => r.loginRps),
    };
    console.log(
      `\nfixed ${Math.round(summary.fixedRpsMedian)} req/s, script ${
        Math.round(summary.scriptRpsMedian)
      } req/s: ` +
        `${
          summary.scriptVsFixedMedian.toFixed(3)
        }x (median of ${rounds.length} rounds' ratios; goal >= 0.6x)\n` +
        (summary.k6RpsMedian === null
          ? "k6: skipped (not built)\n"
          : `k6 ${Math.round(summary.k6RpsMedian)} req/s: script ${
            summary.scriptVsK6Median!.toFixed(2)
          }x k6 ` +
            "(goal >= 5x)\n") +
        `generator CPU per request (medians): fixed ${summary.fixedCpuUsMedian.toFixed(1)} us, script ` +
        `${summary.scriptCpuUsMedian.toFixed(1)} us\n` +
        `k6 script on loadlab: ${Math.round(summary.k6ScriptRpsMedian)} req/s, ` +
        `${summary.k6ScriptCpuUsMedian.toFixed(1)} us CPU per request, ` +
        `${summary.k6ScriptVsFixedMedian.toFixed(3)}x the fixed request (goal >= 0.6x); ` +
        (summary.k6ScriptVsK6Median === null
          ? "vs k6: skipped (k6 not built)\n"
          : `${summary.k6ScriptVsK6Median.toFixed(2)}x k6 (goal >= 5x)\n`) +
        `login + 3 requests session (built-in target): ${Math.round(summary.loginSessionsPerSecMedian)} ` +
        `sessions/s, ${Math.round(summary.loginRpsMedian)} req/s\n` +
        `k6's login + 3 requests script on loadlab: ${Math.round(summary.k6LoginRpsMedian)} req/s; ` +
        (summary.k6LoginVsK6Median === null
          ? "vs k6: skipped (k6 not built)"
          : `${summary.k6LoginVsK6Median.toFixed(2)}x k6 (goal >= 3x)`) +
        `\nload average before ${loadBefore}, after ${loadAfter}`,
    );
    const record = {
      createdAt: new Date().toISOString(),
      pinned,
      connections: opts.connections,
      durationSec: opts.durationSec,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
      summary,
      rounds,
    };
    const outPath = new URL(
      opts.connections === 50 ? "./last_run_scripts.json" : `./last_run_scripts_c${opts.connections}.json`,
      import.meta.url,
    );
    await Deno.writeTextFile(outPath, JSON.stringify(record, null, 2) + "\n");
    console.log(`wrote ${outPath.pathname}`);
    const k6Met = (summary.scriptVsK6Median === null || summary.scriptVsK6Median >= 5) &&
      (summary.k6ScriptVsK6Median === null || summary.k6ScriptVsK6Median >= 5) &&
      (summary.k6LoginVsK6Median === null || summary.k6LoginVsK6Median >= 3);
    const fixedMet = summary.scriptVsFixedMedian >= 0.6 && summary.k6ScriptVsFixedMedian >= 0.6;
    return fixedMet && k6Met ? 0 : 1;
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
  else Deno.exit(await runScriptBench({ durationSec: 3, rounds: 3, connections: 50 }));
}
