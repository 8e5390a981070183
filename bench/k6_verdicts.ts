/**
 * @module
 * Does a k6 test reach k6's verdict on loadlab? Each script of a corpus runs under real k6 and under `loadlab
 * run`, with the same command line (the script's `// args:` line, plus `-q --summary-export FILE` on both),
 * against the same local servers: 127.0.0.1:18481 and :18482, each httpbin's echo paths and the built-in
 * target (bench/k6_examples.ts), counting the requests they answer. A row compares the exit codes, every
 * threshold's outcome (from each tool's summary export), each check's passes and fails (the same within 10%;
 * with a `// counts: by duration` line, each check's share of passes within 10 points, as a duration bounds
 * how many iterations a loaded machine fits), the requests each server answered (both servers reached or
 * not alike) and the lines each wrote that begin `@ ` (a handleSummary's findings). The corpus is
 * bench/k6_verdicts/ (written as teams write their tests; `--corpus DIR` names
 * another folder of scripts with `// args:` lines, or bench/k6_public/: public scripts run unchanged from
 * checkouts its cases.json names) and, with `--examples DIR`, k6's own examples/ that need no internet (their
 * `http://httpbin.org` sent to :18481: k6's `hosts` in a `--config` file, loadlab's `--target app=URL`;
 * `-u 1 -i 2` on both). gRPC scripts call examples/grpc/server.js's greeter at `$GRPC_ADDR` (:18483).
 * Without k6 (`--k6-bin`, `$K6`, else `k6` on PATH) it prints why and runs nothing.
 *
 *   deno task bench --k6-verdicts [--k6-bin PATH] [--corpus DIR] [--examples DIR] [--only NAME]
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { findProgram } from "../system/path_lookup.ts";
import { type ExamplesServer, isGrpcScript, startExamplesServer } from "./k6_examples.ts";
import { startGreeter } from "./grpc.ts";
import { isK6File } from "../runner/script/k6/convert/converted_file.ts";

/** The two servers the corpus names (fixed: its scripts' fallback URLs name them). */
const PORTS = [18481, 18482] as const;
/** The greeter's port (fixed: a `hosts` entry of a checkout's `--config` names it). */
const GREETER_PORT = 18483;
const CORPUS = new URL("./k6_verdicts/", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const GREETER = new URL("../examples/grpc/server.js", import.meta.url).pathname;
/** How long one tool may take on one script (the longest script runs 20 s unless aborted). */
const RUN_LIMIT_MS = 120_000;

/** What one tool's run of one script gave. */
export interface ToolRun {
  code: number;
  /** Each threshold (`metric{tags}: rule`) and whether it held; null: no summary export written. */
  thresholds: Map<string, boolean> | null;
  /** Each check (its group path and name) with its passes and fails. */
  checks: Map<string, [number, number]>;
  /** Requests each server answered during the run. */
  origins: number[];
  /** The first stderr line, when the run wrote no summary export. */
  note: string;
  /** Its stdout's lines that begin `@ ` (what a script's handleSummary or console wrote to compare). */
  marked?: string;
}

/** One script and how it is run. */
interface Case {
  name: string;
  path: string;
  args: string[];
  /** Only k6's: how its public hosts reach the local server (k6's `--config` with `hosts`). */
  k6Extra: string[];
  /** Only loadlab's: the same, as `--target app=URL`. */
  loadlabExtra: string[];
  /** The script's `// env:` line: variables both tools run with (k6's `K6_VUS`, ...). */
  env: Record<string, string>;
  /** `// counts: by duration`: how many iterations run is the machine's; checks compared by share. */
  byDuration?: boolean;
}

/** A stream's lines that begin `@ `: a handleSummary's findings, compared between the tools. */
const marked = (bytes: Uint8Array) =>
  new TextDecoder().decode(bytes).split("\n").filter((l) => l.startsWith("@ ")).join("\n");

export async function main(argv: string[]): Promise<number> {
  const specs = [
    { long: "k6-verdicts", takesValue: false },
    { long: "k6-bin", takesValue: true, example: "/usr/local/bin/k6" },
    { long: "examples", takesValue: true, example: "k6/examples" },
    { long: "corpus", takesValue: true, example: "tests/k6" },
    { long: "only", takesValue: true, example: "abort" },
  ];
  const flags = new FlagValues(tokenize(argv, specs, {}, "bench"), specs);
  const k6 = flags.text("k6-bin") ?? Deno.env.get("K6") ?? findProgram("k6");
  if (k6 === null || findProgram(k6) === null) {
    console.log("k6 verdicts: skipped: no k6 (give --k6-bin PATH or $K6, or put k6 on PATH)");
    return 0;
  }
  const only = flags.text("only");
  const examples = flags.text("examples");
  const corpus = resolve(flags.text("corpus") ?? CORPUS);
  const cases = [...corpusCases(corpus), ...(examples === undefined ? [] : exampleCases(resolve(examples)))]
    .filter((c) => only === undefined || c.name.includes(only));
  const servers = PORTS.map((port) => startExamplesServer(port));
  // The corpus's gRPC scripts call the Node greeter at $GRPC_ADDR (both tools given it).
  const greeter = cases.some((c) => isGrpcScript(c.path))
    ? await startGreeter(["node", GREETER], [], GREETER_PORT)
    : null;
  for (const c of cases) c.env.GRPC_ADDR ??= `127.0.0.1:${greeter?.port}`;
  const work = Deno.makeTempDirSync({ prefix: "loadlab-k6-verdicts-" });
  const version = new TextDecoder().decode(new Deno.Command(k6, { args: ["version"] }).outputSync().stdout);
  console.log(`k6 verdicts: ${version.trim()}; loadlab ${MAIN}; load average ${loadAverage()}`);
  const rows: string[][] = [];
  let same = 0;
  try {
    for (const c of cases) {
      if (c.args[0] === "skip") {
        rows.push([c.name, "-", "-", "-", "-", "-", `skipped: ${c.args.slice(1).join(" ")}`]);
        continue;
      }
      const k6Run = await runTool(k6, c, servers, work, "k6");
      const llRun = await runTool(Deno.execPath(), c, servers, work, "loadlab");
      const row = compareRuns(c.name, k6Run, llRun, c.byDuration);
      console.error(`${c.name}: ${row.at(-1)}`);
      if (row.at(-1) === "same") same++;
      rows.push(row);
    }
  } finally {
    for (const s of servers) await s.shutdown();
    greeter?.child.kill();
    await greeter?.child.status;
  }
  const header = ["script", "exit k6/ll", "thresholds", "checks", "origins k6", "origins ll", "verdict"];
  printTable([header, ...rows]);
  const ran = rows.filter((r) => !r.at(-1)!.startsWith("skipped")).length;
  console.log(`\n${same} of ${ran} scripts reach k6's verdict on loadlab; load average ${loadAverage()}`);
  return 0;
}

/**
 * The corpus's scripts, each with its `// args:` line (none: no flags); in a folder with a cases.json
 * (bench/k6_public/: scripts run as their authors wrote them), the scripts it lists by path, with its `args`,
 * `env` and `counts` (`by duration`, as a script's `// counts:` line).
 */
function corpusCases(folder: string): Case[] {
  type Listed = Array<[string, { args?: string[]; env?: Record<string, string>; counts?: string }]>;
  let listed: Listed | null = null;
  try {
    listed = Object.entries(JSON.parse(Deno.readTextFileSync(join(folder, "cases.json"))))
      .filter(([, c]) => (c as { args?: string[] }).args !== undefined) as Listed;
  } catch { /* scripts with `// args:` lines */ }
  if (listed !== null) {
    return listed.map(([name, c]) => ({
      name,
      path: join(folder, name),
      // `{corpus}` names the folder (a `--config` file beside cases.json); a script not checked out is
      // skipped.
      args: existsSync(join(folder, name))
        ? (c.args ?? []).map((a) => a.replaceAll("{corpus}", folder))
        : ["skip", "not checked out (its README says how)"],
      k6Extra: [],
      loadlabExtra: [],
      env: c.env ?? {},
      byDuration: c.counts === "by duration",
    }));
  }
  return [...Deno.readDirSync(folder)].filter((e) => e.isFile && /\.(m?js|ts)$/.test(e.name)).map((e) => {
    const path = join(folder, e.name);
    const text = Deno.readTextFileSync(path);
    const words = (key: string) =>
      (new RegExp(`^// ${key}:(.*)$`, "m").exec(text)?.[1] ?? "").trim().split(/\s+/).filter((a) => a !== "");
    const env = Object.fromEntries(words("env").map((pair) => pair.split(/=(.*)/s, 2)));
    const byDuration = words("counts").join(" ") === "by duration";
    return { name: e.name, path, args: words("args"), k6Extra: [], loadlabExtra: [], env, byDuration };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * k6's examples that need no internet: every request to `http://httpbin.org` (or no URL at all), sent to
 * the first server; the others are listed as skipped with why.
 */
function exampleCases(folder: string): Case[] {
  const config = join(Deno.makeTempDirSync({ prefix: "loadlab-k6-hosts-" }), "config.json");
  Deno.writeTextFileSync(config, JSON.stringify({ hosts: { "httpbin.org": `127.0.0.1:${PORTS[0]}` } }));
  return [...Deno.readDirSync(folder)].filter((e) => e.isFile && e.name.endsWith(".js")).map((e) => {
    const path = join(folder, e.name);
    const name = `examples/${e.name}`;
    const text = Deno.readTextFileSync(path);
    const hosts = [
      ...new Set([...text.matchAll(/\b(wss?|https?):\/\/(?:[^/@\s"'`]+@)?([A-Za-z0-9.-]+)/g)]
        .map((m) => `${m[1]}://${m[2]}`)),
    ];
    const skip = (why: string): Case => ({
      name,
      path,
      args: ["skip", why],
      k6Extra: [],
      loadlabExtra: [],
      env: {},
    });
    if (!isK6File(path)) return skip("no k6 import");
    if (isGrpcScript(path)) return skip("gRPC (needs k6's example server)");
    const away = hosts.filter((h) => h !== "http://httpbin.org" && !/\/\/(localhost|127\.)/.test(h));
    if (away.length > 0) return skip(`needs ${away.join(", ")}`);
    // Only a script of httpbin's is pointed at the local server; one of localhost's goes where it says.
    const httpbin = hosts.includes("http://httpbin.org");
    return {
      name,
      path,
      args: ["-u", "1", "-i", "2"],
      k6Extra: httpbin ? ["--config", config] : [],
      loadlabExtra: httpbin ? ["--target", `app=http://127.0.0.1:${PORTS[0]}`] : [],
      env: {},
    };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

/** One tool's run of `c`: its exit code, its summary export read, the requests each server answered. */
async function runTool(
  program: string,
  c: Case,
  servers: ExamplesServer[],
  work: string,
  tool: "k6" | "loadlab",
): Promise<ToolRun> {
  const exportFile = join(work, `${tool}-${c.name.replace(/\W/g, "_")}.json`);
  try {
    Deno.removeSync(exportFile);
  } catch { /* not there */ }
  const common = ["-q", "--summary-export", exportFile, ...c.args];
  const args = tool === "k6"
    ? ["run", ...common, ...c.k6Extra, c.path]
    : ["run", "-A", MAIN, "run", c.path, ...common, ...c.loadlabExtra, "--out-dir", join(work, "out")];
  const before = servers.map((s) => s.requests());
  const out = await new Deno.Command(program, {
    args,
    cwd: dirname(c.path),
    // PWD as a shell sets it for a command run in the script's folder (a script may read `__ENV.PWD`).
    env: { PWD: dirname(c.path), ...c.env, NO_COLOR: "1", K6_NO_USAGE_REPORT: "true" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(RUN_LIMIT_MS),
  }).output();
  const origins = servers.map((s, k) => s.requests() - before[k]);
  // The line that says why (a stack's frames after it say where).
  const stderr = new TextDecoder().decode(out.stderr).split("\n").filter((l) => /^\S/.test(l));
  const lines = [marked(out.stdout), marked(out.stderr)].filter((l) => l !== "").join("\n");
  let exported: { metrics?: Record<string, { thresholds?: Record<string, boolean> }>; root_group?: Group };
  try {
    exported = JSON.parse(Deno.readTextFileSync(exportFile));
  } catch {
    return {
      code: out.code,
      thresholds: null,
      checks: new Map(),
      origins,
      note: stderr[0] ?? "",
      marked: lines,
    };
  }
  const thresholds = new Map<string, boolean>();
  for (const [metric, values] of Object.entries(exported.metrics ?? {})) {
    // The export says true for a threshold that failed.
    for (const [rule, failed] of Object.entries(values.thresholds ?? {})) {
      thresholds.set(`${metric}: ${rule}`, !failed);
    }
  }
  const checks = new Map<string, [number, number]>();
  collectChecks(exported.root_group, "", checks);
  return { code: out.code, thresholds, checks, origins, note: "", marked: lines };
}

type Group = {
  groups?: Record<string, Group> | Group[];
  checks?: Record<string, { name: string; passes: number; fails: number }>;
};

/** Every check of a group and its subgroups, by `group path / name`. */
export function collectChecks(
  group: Group | undefined,
  path: string,
  into: Map<string, [number, number]>,
): void {
  if (group === undefined) return;
  for (const c of Object.values(group.checks ?? {})) {
    const key = path === "" ? c.name : `${path} / ${c.name}`;
    const had = into.get(key) ?? [0, 0];
    into.set(key, [had[0] + c.passes, had[1] + c.fails]);
  }
  for (const [name, sub] of Object.entries(group.groups ?? {})) {
    collectChecks(sub, path === "" ? (sub as { name?: string }).name ?? name : `${path}::${name}`, into);
  }
}

/** A row: each part compared; `same` when every part is. */
export function compareRuns(name: string, k6: ToolRun, ll: ToolRun, byDuration = false): string[] {
  const exit = `${k6.code}/${ll.code}`;
  const thresholds = thresholdsCell(k6, ll);
  const checks = checksCell(k6, ll, byDuration);
  const reached = (o: number[]) => o.map((n) => n > 0);
  const originsSame = reached(k6.origins).join() === reached(ll.origins).join();
  const markedSame = (k6.marked ?? "") === (ll.marked ?? "");
  const parts = [k6.code === ll.code, thresholds.startsWith("same"), checks.startsWith("same"), originsSame];
  const verdict = parts.every(Boolean) && markedSame
    ? "same"
    : ll.note !== ""
    ? `differs: ${ll.note.slice(0, 90)}`
    : parts.every(Boolean)
    ? `differs: ${firstApart(k6.marked ?? "", ll.marked ?? "")}`
    : "differs";
  return [name, exit, thresholds, checks, k6.origins.join("+"), ll.origins.join("+"), verdict];
}

/** The first `@ ` line the tools wrote apart, each tool's. */
function firstApart(k6: string, ll: string): string {
  const a = k6.split("\n"), b = ll.split("\n");
  const i = a.findIndex((line, k) => line !== b[k]);
  const at = i === -1 ? a.length : i;
  return `k6 ${JSON.stringify(a[at] ?? "")}, ll ${JSON.stringify(b[at] ?? "")}`;
}

/** `same N/N`, or what differs: a threshold judged otherwise, missing or extra. */
function thresholdsCell(k6: ToolRun, ll: ToolRun): string {
  // Both refused the script before the load (k6's 104), or k6 wrote no export where loadlab's judges no
  // threshold (k6's summary fails when no metric has a sample nor a threshold): none judged by either.
  if (k6.thresholds === null && (ll.thresholds?.size ?? 0) === 0) return "same (neither judged)";
  if (k6.thresholds === null) return "k6: no export";
  if (ll.thresholds === null) return "ll: no export";
  const differ: string[] = [];
  for (const [name, held] of k6.thresholds) {
    const other = ll.thresholds.get(name);
    if (other !== held) {
      differ.push(`${name} k6 ${word(held)}, ll ${other === undefined ? "absent" : word(other)}`);
    }
  }
  for (const name of ll.thresholds.keys()) if (!k6.thresholds.has(name)) differ.push(`${name} ll only`);
  const held = [...k6.thresholds.values()].filter(Boolean).length;
  if (differ.length === 0) return `same (${held} held, ${k6.thresholds.size - held} failed)`;
  return firstOf(differ);
}

const word = (held: boolean) => held ? "held" : "failed";

/**
 * `same N` when every check's passes and fails are within 10% (or 1) of k6's, else what differs; by
 * duration, when each passed and failed alike (some or none) and its share of passes is within 10 points.
 */
function checksCell(k6: ToolRun, ll: ToolRun, byDuration: boolean): string {
  const differ: string[] = [];
  const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(1, 0.1 * Math.max(a, b));
  const share = (p: number, f: number) => p / Math.max(1, p + f);
  const alike = ([p, f]: number[], [q, g]: number[]) =>
    byDuration
      ? (p > 0) === (q > 0) && (f > 0) === (g > 0) && Math.abs(share(p, f) - share(q, g)) <= 0.1
      : near(p, q) && near(f, g);
  for (const [name, [p, f]] of k6.checks) {
    const other = ll.checks.get(name);
    if (other === undefined) differ.push(`${name} absent`);
    else if (!alike([p, f], other)) {
      differ.push(`${name} k6 ${p}/${f}, ll ${other[0]}/${other[1]}`);
    }
  }
  for (const name of ll.checks.keys()) if (!k6.checks.has(name)) differ.push(`${name} ll only`);
  const how = byDuration ? ", by duration" : "";
  return differ.length === 0 ? `same (${k6.checks.size}${how})` : firstOf(differ);
}

/** The first two differences and how many more: a table cell stays readable. */
function firstOf(differ: string[]): string {
  const more = differ.length > 2 ? `; +${differ.length - 2} more` : "";
  return differ.slice(0, 2).join("; ") + more;
}

/** The 1-minute load average (the machine is shared: a row's times are not the point, its verdict is). */
function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

/** A markdown table, so the output can be pasted into docs/lab/K6_VERDICTS.md as it is. */
export function printTable(rows: string[][]): void {
  const cell = (s: string) => s.replaceAll("|", "\\|");
  const [header, ...body] = rows;
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const row of body) console.log(`| ${row.map(cell).join(" | ")} |`);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
