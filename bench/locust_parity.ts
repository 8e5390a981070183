/**
 * @module
 * Does a locustfile count on loadlab what it counts on Locust? Each locustfile of a corpus runs under real
 * Locust and under `loadlab run`, with the same command line (its `# args:` line, plus `--headless -H URL
 * --csv PREFIX --only-summary` on both), against the same local app: the built-in target started by
 * `loadlab serve`. A row compares, per request name, the requests (within 10%) and the failures (within
 * 10%, or both 0), the four CSV files' columns, and the exit codes: loadlab's from its `_stats.csv`,
 * Locust's from its final stats (`--json-file`: its `_stats.csv` is the last of its once-a-second writes,
 * up to a second short).
 * Locust's users run shorter than its `-t`: its timer counts from its event loop's clock, last read
 * before its startup, so loadlab runs each file for the time Locust's log says its users ran (from
 * "Ramping to", or "All users spawned" under `--processes`, to "--run-time limit reached"), and the row
 * says both. The corpus is bench/locust/ (written as teams write them); `--corpus DIR` names another
 * folder (a file without `# args:` runs with `-u 10 -r 10 -t 10s`, as Locust's own examples/ do here). A
 * corpus with a `cases.json`
 * (bench/locust_community/: public locustfiles run unchanged) names its files, each one's command line,
 * environment, whether its count is its tool's speed (`rateBound`: loadlab's counts scaled to Locust's
 * total) and whether it is a random draw (`random`: within 10% or three standard deviations, `near`), each
 * run in its file's folder. Without Locust (`--locust-bin`, `$LOCUST`, else `locust` on PATH)
 * it prints why and runs nothing.
 *
 * `--locust-speed`: one GET with `wait_time = constant(0)` at 50 users against nginx (CPU 0), each tool on
 * CPU 1 (`taskset`): Locust's HttpUser, its FastHttpUser and loadlab, requests a second from each one's
 * `_stats.csv` over `--duration` (10 s), and each one's CPU per request past its start-up: the CPU and
 * requests of the run less those of a run of SHORT_SEC (the process's own CPU, as the reaped child's).
 * nginx's one core bounds loadlab's rate, so the rate ratio understates it: the goals (>= 40x Locust's
 * HttpUser, >= 10x its FastHttpUser) are read on CPU per request.
 *
 *   deno task bench --locust [--locust-bin PATH] [--corpus DIR] [--only NAME]
 *   deno task bench --locust-speed [--locust-bin PATH] [--duration 10s]
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { parseDurationMs } from "../cli/flag_values.ts";
import { findProgram } from "../system/path_lookup.ts";
import { childrenCpuSec } from "./tool_run.ts";
import { startNginx } from "./nginx.ts";

const CORPUS = new URL("./locust/", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const RUN_LIMIT_MS = 120_000;

/** Requests and failures by `Type Name` (the Aggregated row left out), from a `_stats.csv`. */
type Counts = Map<string, [number, number]>;

interface ToolRun {
  code: number;
  counts: Counts;
  rps: number;
  /** The Aggregated row's average response time, ms: what each tool's client adds to a task's time. */
  avgMs: number;
  note: string;
  /** The header rows of its four CSV files (`_stats`, `_failures`, `_exceptions`, `_stats_history`). */
  columns?: string[];
  /** Locust's: how long its users ran by its log, ms (NaN when its log does not say). */
  ranMs: number;
  /** The process's user + system CPU seconds (NaN off Linux). */
  cpuSec: number;
}

export async function main(argv: string[]): Promise<number> {
  const specs = [
    { long: "locust", takesValue: false },
    { long: "locust-speed", takesValue: false },
    { long: "locust-bin", takesValue: true, example: "/usr/local/bin/locust" },
    { long: "corpus", takesValue: true, example: "bench/locust" },
    { long: "only", takesValue: true, example: "login" },
    { long: "duration", takesValue: true, example: "10s" },
  ];
  const flags = new FlagValues(tokenize(argv, specs, {}, "bench"), specs);
  const locust = flags.text("locust-bin") ?? Deno.env.get("LOCUST") ?? findProgram("locust");
  if (locust === null || findProgram(locust) === null) {
    console.log(
      "locust parity: skipped: no locust (give --locust-bin PATH or $LOCUST, or put locust on PATH)",
    );
    return 0;
  }
  if (flags.has("locust-speed")) return await speed(locust, parseDurationMs(flags.text("duration") ?? "10s"));
  const only = flags.text("only");
  const corpus = resolve(flags.text("corpus") ?? CORPUS);
  const cases = casesOf(corpus);
  const files =
    (cases === null
      ? [...Deno.readDirSync(corpus)].filter((e) => e.name.endsWith(".py")).map((e) => e.name).sort()
      : Object.keys(cases).filter((name) => name !== "_about"))
      .filter((name) => only === undefined || name.includes(only));
  const server = await serve();
  const version = run([locust, "--version"]).trim();
  console.log(`locust parity: ${version}; loadlab ${MAIN}; load average ${loadAverage()} (2 cores, shared)`);
  const rows: string[][] = [];
  let same = 0;
  try {
    for (const name of files) {
      const one = cases?.[name];
      // A case's `f` is its `-f` as the team gives it (several files, comma-separated), from its folder.
      const path = one?.f === undefined
        ? join(corpus, name)
        : join(corpus, one.cwd ?? "", one.f.split(",")[0]);
      if (one !== undefined && !existsSync(path)) {
        rows.push([name, "", "", "", "not checked out (README.md)", "skipped"]);
        continue;
      }
      const args = (one?.args ?? argsOf(Deno.readTextFileSync(path))).map((a) =>
        a.replace("{url}", server.url)
      );
      const env = Object.fromEntries(
        Object.entries(one?.env ?? {}).map(([k, v]) => [k, v.replace("{url}", server.url)]),
      );
      const cwd = one === undefined ? corpus : one.cwd === undefined ? dirname(path) : join(corpus, one.cwd);
      const common = ["--headless", "-H", server.url, ...args, "--only-summary"];
      const file = one?.f ?? path;
      const theirs = await runTool([locust, "-f", file, ...common], "locust", false, cwd, env);
      const ranMs = Math.round(theirs.ranMs);
      // Without -t (a --config file's run-time), loadlab's -t is the time Locust's users ran.
      const timed = [...common, ...(common.includes("-t") || !(ranMs > 0) ? [] : ["-t", "0"])];
      for (let i = 1; i < timed.length; i++) if (timed[i - 1] === "-t" && ranMs > 0) timed[i] = `${ranMs}ms`;
      const ours = await runTool(
        [Deno.execPath(), "run", "-A", MAIN, "run", "-f", file, ...timed],
        "loadlab",
        true,
        cwd,
        env,
      );
      const drawn = one?.random === true;
      const { ok, detail } = compare(
        theirs,
        one?.rateBound ? scaled(ours, total(theirs.counts)) : ours,
        drawn,
      );
      if (ok) same++;
      const given = common.includes("-t") ? common[common.indexOf("-t") + 1] : "its config";
      rows.push([
        name,
        `${given}/${(ranMs / 1000).toFixed(2)}s`,
        `${theirs.code}/${ours.code}`,
        drawn ? "10% or 3σ" : "10%",
        detail,
        ok ? "same" : "DIFFERENT",
      ]);
      console.log(`  ${name}: ${ok ? "same" : "DIFFERENT"}: ${detail}`);
    }
  } finally {
    await server.stop();
  }
  console.log(
    `\n| locustfile | -t / Locust's users ran | exit (Locust/loadlab) | within | per name: requests Locust/loadlab (failures) | verdict |`,
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log(`\n${same} of ${rows.length} the same; load average after: ${loadAverage()}`);
  return same === rows.length ? 0 : 1;
}

/** The `# args:` line of a locustfile (Locust's flags for the load); else 10 users for 10 s. */
function argsOf(text: string): string[] {
  const line = text.split("\n").find((l) => l.startsWith("# args:"));
  return line === undefined
    ? ["-u", "10", "-r", "10", "-t", "10s"]
    : line.slice("# args:".length).trim().split(/\s+/);
}

/** A corpus's `cases.json`, when it has one: each file's command line, environment and count kind. */
type Case = {
  args: string[];
  env?: Record<string, string>;
  rateBound?: boolean;
  random?: boolean;
  /** The folder it runs in, relative to the corpus, where its imports name a repository's root. */
  cwd?: string;
  /** Its `-f` as the team gives it, relative to `cwd`, when that is not the case's name. */
  f?: string;
};
function casesOf(corpus: string): Record<string, Case> | null {
  const path = join(corpus, "cases.json");
  return existsSync(path) ? JSON.parse(Deno.readTextFileSync(path)) : null;
}

/** A run whose requests are its tool's speed, its counts scaled to `to` requests in all. */
function scaled(run: ToolRun, to: number): ToolRun {
  const k = to / Math.max(1, total(run.counts));
  const counts: Counts = new Map(
    [...run.counts].map(([n, [r, f]]) => [n, [Math.round(r * k), Math.round(f * k)]]),
  );
  return { ...run, counts };
}

/** Runs `cmd` in a folder of its own with `--csv`; its exit code and the counts of its `_stats.csv`. */
async function runTool(
  cmd: string[],
  label: string,
  loadlab = false,
  cwd?: string,
  env: Record<string, string> = {},
): Promise<ToolRun> {
  const dir = Deno.makeTempDirSync({ prefix: `loadlab-locust-${label}-` });
  const extra = [
    "--csv",
    join(dir, "res"),
    ...(loadlab ? ["--out-dir", join(dir, "out")] : ["--json-file", join(dir, "final")]),
  ];
  const cpuBefore = childrenCpuSec() ?? NaN;
  const out = await new Deno.Command(cmd[0], {
    args: [...cmd.slice(1), ...extra],
    cwd: cwd ?? dir,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(RUN_LIMIT_MS),
  }).output();
  const cpuSec = (childrenCpuSec() ?? NaN) - cpuBefore;
  const log = new TextDecoder().decode(out.stderr);
  // Its users' start: "Ramping to"; under --processes, where each worker starts its share at once when its
  // master's jobs arrive, "All users spawned".
  const start = loggedAtMs(log, "Ramping to");
  const ranMs = loggedAtMs(log, "--run-time limit reached") -
    (isNaN(start) ? loggedAtMs(log, "All users spawned") : start);
  try {
    const stats = { ...readStats(join(dir, "res_stats.csv")), columns: csvHeads(join(dir, "res")) };
    // Locust's --json empties its stats as it prints them: its --json-file is then [], its stdout the stats
    // (after what the file printed).
    const stdout = new TextDecoder().decode(out.stdout);
    const json = cmd.includes("--json") ? stdout.slice(stdout.search(/^\[/m)) : null;
    if (loadlab) return { code: out.code, ...stats, note: "", ranMs, cpuSec };
    const final = JSON.parse(json ?? Deno.readTextFileSync(join(dir, "final.json"))) as FinalEntry[];
    stats.counts = new Map(final.map((e) => [`${e.method} ${e.name}`, [e.num_requests, e.num_failures]]));
    // A log above INFO (-L WARNING) says neither: its first to last request, short by a wait at most.
    const span = Math.max(...final.map((e) => e.last_request_timestamp ?? 0)) -
      Math.min(...final.map((e) => e.start_time));
    return { code: out.code, ...stats, note: "", ranMs: isNaN(ranMs) ? span * 1000 : ranMs, cpuSec };
  } catch {
    const note = log.trim().split("\n").slice(-1)[0] ?? "";
    return { code: out.code, counts: new Map(), rps: 0, avgMs: 0, note, ranMs, cpuSec };
  }
}

/** When Locust's log (`[2026-11-26 20:13:40,722] host/INFO/...: what`) first says `what`, ms; else NaN. */
function loggedAtMs(log: string, what: string): number {
  const line = log.split("\n").find((l) => l.includes(what));
  const m = line === undefined ? null : /^\[(\S+) (\S+),(\d+)\]/.exec(line);
  return m === null ? NaN : Date.parse(`${m[1]}T${m[2]}Z`) + Number(m[3]);
}

function readStats(path: string): { counts: Counts; rps: number; avgMs: number } {
  const [head, ...rows] = Deno.readTextFileSync(path).trim().split(/\r?\n/).map(csvFields);
  const at = (name: string) => head.indexOf(name);
  const counts: Counts = new Map();
  let rps = 0, avgMs = 0;
  for (const r of rows) {
    if (r[at("Name")] === "Aggregated") {
      rps = Number(r[at("Requests/s")]);
      avgMs = Number(r[at("Average Response Time")]);
      continue;
    }
    counts.set(`${r[at("Type")]} ${r[at("Name")]}`, [
      Number(r[at("Request Count")]),
      Number(r[at("Failure Count")]),
    ]);
  }
  return { counts, rps, avgMs };
}

const CSV_FILES = ["_stats", "_failures", "_exceptions", "_stats_history"];

/** The header row of each of `prefix`'s CSV files ("" for one not written). */
function csvHeads(prefix: string): string[] {
  return CSV_FILES.map((f) =>
    existsSync(`${prefix}${f}.csv`) ? Deno.readTextFileSync(`${prefix}${f}.csv`).split(/\r?\n/)[0] : ""
  );
}

/** A name's entry of Locust's final stats (`--json-file`'s or `--json`'s text). */
type FinalEntry = {
  method: string;
  name: string;
  num_requests: number;
  num_failures: number;
  start_time: number;
  last_request_timestamp: number | null;
};

/** A CSV line's fields (double-quoted fields with `""` inside). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = "", quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') field += '"', i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") out.push(field), field = "";
    else field += c;
  }
  out.push(field);
  return out;
}

/**
 * Within 10% of each other (or both 0). A count that is a random draw (`drawn`: the file picks its tasks or
 * waits at random) may also differ by three standard deviations of the difference of two draws: a binomial
 * or Poisson count's variance is at most its mean, so that difference's is at most a + b.
 */
function near(a: number, b: number, drawn = false): boolean {
  return Math.abs(a - b) <= Math.max(1, 0.1 * Math.max(a, b), drawn ? 3 * Math.sqrt(a + b) : 0);
}

/** No request on either: Locust's 1 (its import failed, or every task raised) and loadlab's refusal, 2. */
const refusedCodes = (theirs: number, ours: number) => theirs === ours || (theirs === 1 && ours === 2);

function compare(theirs: ToolRun, ours: ToolRun, drawn = false): { ok: boolean; detail: string } {
  if (theirs.counts.size === 0 && ours.counts.size === 0 && refusedCodes(theirs.code, ours.code)) {
    const what = theirs.note === "" && ours.note === ""
      ? "no request on either"
      : `no request on either: ${ours.note || theirs.note}`;
    return { ok: true, detail: `${what} (exit ${ours.code})` };
  }
  if (theirs.counts.size === 0 || ours.counts.size === 0) {
    return { ok: false, detail: `no stats: ${theirs.note || ours.note}` };
  }
  const names = [...new Set([...theirs.counts.keys(), ...ours.counts.keys()])].sort();
  let ok = theirs.code === ours.code;
  // Locust's CSV columns, file for file: a team's scripts read them.
  const columnsDiffer = CSV_FILES.filter((_, i) => theirs.columns?.[i] !== ours.columns?.[i]);
  ok &&= columnsDiffer.length === 0;
  const parts = names.map((name) => {
    const [tr, tf] = theirs.counts.get(name) ?? [0, 0];
    const [or, of] = ours.counts.get(name) ?? [0, 0];
    // A name drawn on one side only cannot say whether it fails on the other.
    const failsAlike = (tf === 0) === (of === 0) || (drawn && (tr === 0 || or === 0));
    const same = near(tr, or, drawn) && failsAlike && near(tf, of, drawn);
    ok &&= same;
    return `${name} ${tr}/${or}${tf + of > 0 ? ` (${tf}/${of})` : ""}${same ? "" : " !"}`;
  });
  if (columnsDiffer.length > 0) parts.push(`columns of ${columnsDiffer.join(", ")} differ !`);
  parts.push(
    `all ${total(theirs.counts)}/${total(ours.counts)}, avg ${theirs.avgMs.toFixed(1)}/${
      ours.avgMs.toFixed(1)
    } ms`,
  );
  return { ok, detail: parts.join("; ") };
}

/** The built-in target, as `loadlab serve` runs it, on a free port. */
async function serve(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = 18490 + Math.floor(Math.random() * 100);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", "--port", String(port)],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      await (await fetch(url)).body?.cancel();
      return {
        url,
        stop: async () => {
          child.kill("SIGTERM");
          await child.status;
        },
      };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill("SIGKILL");
  throw new Error("loadlab serve did not answer within 30 s");
}

const ONE_GET = (base: string) =>
  `from locust import ${base}, task, constant


class OneGet(${base}):
    wait_time = constant(0)

    @task
    def one(self):
        self.client.get("/")
`;

/** The short run whose CPU and requests each tool's measured run is taken less (its start-up and ramp). */
const SHORT_SEC = 2;

/** One GET at 50 users, each tool on CPU 1 and nginx on CPU 0: req/s and CPU per request of each. */
async function speed(locust: string, durationMs: number): Promise<number> {
  const nginxPath = findProgram("nginx") ?? "/usr/sbin/nginx";
  const nginx = await startNginx(nginxPath, ["taskset", "-c", "0"]);
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-locust-speed-" });
  const t = `${Math.round(durationMs / 1000)}s`;
  // Without nginx's trailing slash: FastHttpUser refuses the request target `//` it would make.
  const host = nginx.url.endsWith("/") ? nginx.url.slice(0, -1) : nginx.url;
  const common = (
    file: string,
    time: string,
  ) => [file, "--headless", "-u", "50", "-r", "50", "-t", time, "-H", host];
  const loadlab = ["taskset", "-c", "1", Deno.execPath(), "run", "-A", MAIN];
  console.log(
    `locust speed: one GET, constant(0), 50 users, ${t}, nginx on CPU 0, each tool on CPU 1 (taskset)`,
  );
  console.log(`load average before: ${loadAverage()} (2 cores, shared with other work)`);
  const tools: Array<[string, (time: string) => Promise<{ rps: number; requests: number; cpuSec: number }>]> =
    [];
  for (const base of ["HttpUser", "FastHttpUser"]) {
    const file = join(dir, `one_get_${base.toLowerCase()}.py`);
    Deno.writeTextFileSync(file, ONE_GET(base));
    tools.push([`Locust ${base}`, async (time) => {
      const r = await runTool(
        ["taskset", "-c", "1", locust, "-f", ...common(file, time), "--only-summary"],
        base,
      );
      return { rps: r.rps, requests: total(r.counts), cpuSec: r.cpuSec };
    }]);
  }
  const file = join(dir, "one_get_loadlab.py");
  Deno.writeTextFileSync(file, ONE_GET("HttpUser"));
  tools.push(["loadlab (the same locustfile)", async (time) => {
    const r = await runTool([...loadlab, "run", ...common(file, time), "--only-summary"], "loadlab", true);
    return { rps: r.rps, requests: total(r.counts), cpuSec: r.cpuSec };
  }]);
  // The engine's own number on the same core: the same GET as a fixed request, 50 connections.
  tools.push(["loadlab attack (a fixed request)", async (time) => {
    const before = childrenCpuSec() ?? NaN;
    const out = await new Deno.Command(loadlab[0], {
      args: [...loadlab.slice(1), "attack", `${host}/`, "-c", "50", "-d", time, "--json"],
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(RUN_LIMIT_MS),
    }).output();
    const cpuSec = (childrenCpuSec() ?? NaN) - before;
    try {
      const r = JSON.parse(new TextDecoder().decode(out.stdout));
      return { rps: r.rps, requests: r.requests ?? r.rps * parseDurationMs(time) / 1000, cpuSec };
    } catch {
      return { rps: 0, requests: 0, cpuSec };
    }
  }]);
  try {
    const rows: Array<[string, number, number]> = [];
    for (const [name, measure] of tools) {
      const short = await measure(`${SHORT_SEC}s`);
      const full = await measure(t);
      rows.push([name, full.rps, ((full.cpuSec - short.cpuSec) * 1e6) / (full.requests - short.requests)]);
    }
    console.log(
      `\n| tool | req/s | x Locust HttpUser | CPU us a request (past start-up) | x Locust HttpUser | ` +
        "x FastHttpUser |\n| --- | --- | --- | --- | --- | --- |",
    );
    for (const [name, rps, cpuUs] of rows) {
      console.log(
        `| ${name} | ${Math.round(rps).toLocaleString("en-US")} | ${(rps / rows[0][1]).toFixed(1)} | ` +
          `${cpuUs.toFixed(2)} | ${(rows[0][2] / cpuUs).toFixed(1)} | ${(rows[1][2] / cpuUs).toFixed(1)} |`,
      );
    }
    const ours = rows[2][2];
    const met = rows[0][2] / ours >= 40 && rows[1][2] / ours >= 10;
    console.log(
      `goal on CPU per request (loadlab >= 40x HttpUser, >= 10x FastHttpUser): ${met ? "met" : "MISSED"}`,
    );
    console.log(`load average after: ${loadAverage()}`);
    return met ? 0 : 1;
  } finally {
    await nginx.stop();
  }
}

const total = (counts: Counts) => [...counts.values()].reduce((a, [n]) => a + n, 0);

function run(cmd: string[]): string {
  const out = new Deno.Command(cmd[0], { args: cmd.slice(1), stdout: "piped", stderr: "piped" }).outputSync();
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}
