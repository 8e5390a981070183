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
 * the exit status is 1 when a goal is missed. k6's CPU per request is shown beside loadlab's, and how busy
 * the target's core was on the fixed request and the k6 script (bench/scripts_summary.ts says when that
 * made a side's rate the target's). Beside it, a login + 3
 * requests session against the built-in target (sessions and requests per second, no goal). The load
 * average before and after goes with the numbers (`bench/last_run_scripts.json`; another connection count
 * than 50: `bench/last_run_scripts_c<count>.json`). `--connections 50,1000,10000` measures each count in turn
 * (the goal holds at every one); k6 runs up to K6_MAX_VUS virtual users (it needs megabytes a user).
 *
 *   deno task bench --scripts [--duration 3s] [--rounds 3] [--connections 50,1000,10000]
 */
import { join } from "node:path";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";
import { freePort, waitForPort } from "../system/ports.ts";
import { startNginx } from "./nginx.ts";
import { readProcStat, treeCpuSec } from "../system/proc_stat.ts";
import { type Round, summarize, summaryLines } from "./scripts_summary.ts";
import { parseK6Summary } from "./tools.ts";
import { childrenCpuSec, measureInPinnedChild } from "./tool_run.ts";
import { sessionScriptPath } from "../runner/script/k6/convert/converted_file.ts";

export interface ScriptBenchOptions {
  durationSec: number;
  rounds: number;
  connections: number;
}

interface ChildPlan extends ScriptBenchOptions {
  nginxUrl: string;
  /** nginx's master: its tree's CPU over a side is how busy the target's core was. */
  nginxPid: number;
  appUrl: string;
  dir: string;
  k6: string | null;
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

/** k6 with `connections` virtual users for the duration, on this process's CPU; its req/s and CPU seconds. */
async function k6Run(
  plan: ChildPlan,
  file = "k6.js",
  url = `${plan.nginxUrl}/`,
): Promise<{ rps: number; cpuSec: number | null }> {
  const summary = join(plan.dir, "k6-summary.json");
  const script = join(plan.dir, file);
  const before = childrenCpuSec();
  const out = await new Deno.Command(plan.k6!, {
    args: ["run", "--quiet", "--vus", `${plan.connections}`, "--duration", `${plan.durationSec}s`]
      .concat(["--summary-export", summary, "-e", `TARGET_URL=${url}`, script]),
    stdout: "null",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error(`k6 failed (exit ${out.code})`);
  const after = childrenCpuSec();
  const cpuSec = before === null || after === null ? null : after - before;
  return { rps: parseK6Summary(await Deno.readTextFile(summary)), cpuSec };
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
    const busyPct: Record<string, number | null> = {};
    for (const side of order) {
      if (side === "k6") {
        const k6 = await k6Run(plan);
        rps.k6 = k6.rps;
        cpuUs.k6 = k6.cpuSec === null ? null : (k6.cpuSec * 1e6) / (k6.rps * plan.durationSec);
        continue;
      }
      const targetBefore = treeCpuSec(plan.nginxPid);
      const before = ownCpuSec();
      const r = await closed(
        plan,
        plan.nginxUrl,
        side === "fixed" ? fixed : side === "script" ? oneGet : k6Script,
      );
      const after = ownCpuSec();
      const targetAfter = treeCpuSec(plan.nginxPid);
      busyPct[side] = targetBefore === null || targetAfter === null || r.durationSec === 0
        ? null
        : ((targetAfter - targetBefore) / r.durationSec) * 100;
      rps[side] = r.rps;
      cpuUs[side] = before === null || after === null || r.requests === 0
        ? null
        : ((after - before) * 1e6) / r.requests;
    }
    const cpuUsOf = (cpuSec: number | null, requests: number) =>
      cpuSec === null || requests === 0 ? null : (cpuSec * 1e6) / requests;
    const loginBefore = ownCpuSec();
    const login = await closed(plan, plan.appUrl, { script: { path: join(plan.dir, "login_3.js") } });
    const loginCpuUs = cpuUsOf(ownCpuSec()! - loginBefore!, login.requests);
    Deno.env.set("TARGET_URL", `${plan.appUrl}/`);
    const k6LoginBefore = ownCpuSec();
    const k6Login = await closed(plan, plan.appUrl, {
      script: { path: sessionScriptPath(join(plan.dir, "k6_login.js")) },
    });
    const k6LoginCpuUs = cpuUsOf(ownCpuSec()! - k6LoginBefore!, k6Login.requests);
    Deno.env.set("TARGET_URL", `${plan.nginxUrl}/`);
    const k6LoginOnK6 = plan.k6 === null ? null : (await k6Run(plan, "k6_login.js", `${plan.appUrl}/`)).rps;
    rounds.push({
      fixedRps: rps.fixed,
      scriptRps: rps.script,
      k6Rps: rps.k6 ?? null,
      k6CpuUs: cpuUs.k6 ?? null,
      fixedTargetBusyPct: busyPct.fixed,
      k6ScriptTargetBusyPct: busyPct.k6script,
      fixedCpuUs: cpuUs.fixed,
      scriptCpuUs: cpuUs.script,
      scriptVsFixed: rps.script / rps.fixed,
      scriptVsK6: rps.k6 === undefined ? null : rps.script / rps.k6,
      k6ScriptRps: rps.k6script,
      k6ScriptCpuUs: cpuUs.k6script,
      k6ScriptVsFixed: rps.k6script / rps.fixed,
      k6ScriptVsK6: rps.k6 === undefined ? null : rps.k6script / rps.k6,
      k6LoginRps: k6Login.rps,
      k6LoginCpuUs,
      loginCpuUs,
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
      nginxPid: nginx.pid,
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
    const summary = summarize(rounds, k6 !== null);
    console.log(
      `\n${
        summaryLines(summary, rounds.length).join("\n")
      }\nload average before ${loadBefore}, after ${loadAfter}`,
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
