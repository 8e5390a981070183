/**
 * @module
 * Does an Artillery script reach Artillery's verdict on loadlab? Each script of bench/artillery_verdicts/
 * (written as teams write them, or `wild_*` from public repositories: copied where the licence permits, their
 * sources named, else checkouts.json says where a checkout puts them; a `# args:` line or checkouts.json
 * gives the command line's flags) runs under `artillery run` and under `loadlab run`, with the same flags,
 * against one local app at 127.0.0.1:18491 that counts the requests it answers. A row compares the exit
 * codes, the virtual users created and failed and the requests sent, answered or not (`vusers.created`,
 * `vusers.failed`, `http.requests` of each tool's `-o` report), the requests the app answered, and every
 * `http.codes.*`, `errors.*`, `vusers.*` and per-endpoint codes counter of the two reports (each the same
 * within 10%, or 1). Without Artillery (`--artillery-bin`, `$ARTILLERY`, else `artillery` on PATH) it prints
 * why and runs nothing.
 *
 * `--record FILE` writes each row's two runs as JSON (the outcomes a test compares with).
 *
 *   deno task bench --artillery-verdicts [--artillery-bin PATH] [--only NAME,...] [--record FILE]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { findProgram } from "../system/path_lookup.ts";
import { printTable } from "./k6_verdicts.ts";

/** The app's port: the scripts name it. */
const PORT = 18491;
const CORPUS = new URL("./artillery_verdicts/", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
/** How long one tool may take on one script (the longest runs 8 s; Artillery starts in up to 30 s). */
const RUN_LIMIT_MS = 120_000;

/** What one tool's run of one script gave; counts are null when it wrote no report. */
export interface ToolRun {
  code: number;
  created: number | null;
  failed: number | null;
  requests: number | null;
  /** Requests the app answered during the run. */
  answered: number;
  /** The first stderr line that says why, when the run wrote no report. */
  note: string;
  /** The report's aggregate counters (`http.codes.200`, `errors.ETIMEDOUT`, `vusers.skipped`, ...). */
  counters?: Record<string, number>;
}

/** An HTML page for `selector` captures: two links in a list and a next link. */
const PAGE = '<ul class="items"><li><a href="/p/1">One</a></li><li><a href="/p/2">Two</a></li></ul>' +
  '<a class="next" data-page="2" href="/list?page=2">next</a>';

/**
 * The app: JSON for every path, `/items` creates (ids from 1 again for each tool's run, so both capture the
 * same ids), `/status/N` answers N, `/slow?ms=N` waits, `/login-cookie` sets a cookie `/me` requires (401
 * without it), `/moved` redirects to /home, `/page.html` is HTML, a WebSocket upgrade echoes each message.
 */
export function startApp(port = PORT) {
  let answered = 0;
  let nextId = 1;
  const server = Deno.serve({ port, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    answered++;
    if (req.headers.get("upgrade") === "websocket") {
      const { socket, response } = Deno.upgradeWebSocket(req);
      socket.onmessage = (e) => socket.send(e.data);
      return response;
    }
    const url = new URL(req.url);
    await req.arrayBuffer();
    if (url.pathname === "/items" && req.method === "POST") {
      return Response.json({ id: nextId++ }, { status: 201, headers: { "x-request-id": `r${nextId}` } });
    }
    if (url.pathname.startsWith("/status/")) {
      const status = +url.pathname.slice(8);
      return new Response([204, 205, 304].includes(status) ? null : "status", { status });
    }
    // A cookie set, then required; a permanent redirect to /home.
    if (url.pathname === "/login-cookie") {
      return Response.json({}, { headers: { "set-cookie": "sid=s1; Path=/" } });
    }
    if (url.pathname === "/me") {
      return new Response("me", { status: /sid=s1/.test(req.headers.get("cookie") ?? "") ? 200 : 401 });
    }
    if (url.pathname === "/page.html") {
      return new Response(PAGE, { headers: { "content-type": "text/html" } });
    }
    if (url.pathname === "/moved") return new Response(null, { status: 301, headers: { location: "/home" } });
    if (url.pathname === "/slow") await new Promise((r) => setTimeout(r, +(url.searchParams.get("ms") ?? 0)));
    return Response.json({ id: 7, path: url.pathname, token: "abc123" });
  });
  return { server, answered: () => answered, restartIds: () => void (nextId = 1) };
}

export async function main(argv: string[]): Promise<number> {
  const specs = [
    { long: "artillery-verdicts", takesValue: false },
    { long: "artillery-bin", takesValue: true, example: "/usr/bin/artillery" },
    { long: "only", takesValue: true, example: "ensure" },
    { long: "record", takesValue: true, example: "t13_outcomes.json" },
  ];
  const flags = new FlagValues(tokenize(argv, specs, {}, "bench"), specs);
  const artillery = flags.text("artillery-bin") ?? Deno.env.get("ARTILLERY") ?? findProgram("artillery");
  if (artillery === null || findProgram(artillery) === null) {
    console.log("Artillery verdicts: skipped: no artillery (give --artillery-bin PATH or $ARTILLERY)");
    return 0;
  }
  const only = flags.text("only");
  const checkouts: Record<string, Checkout> = JSON.parse(
    Deno.readTextFileSync(join(CORPUS, "checkouts.json")),
  );
  const cases = [...Deno.readDirSync(CORPUS)].filter((e) => e.name.endsWith(".yml")).map((e) => e.name)
    .concat(Object.keys(checkouts).filter((name) => name.endsWith(".yml")))
    .filter((name) => only === undefined || only.split(",").some((o) => name.includes(o))).sort();
  const work = Deno.makeTempDirSync({ prefix: "loadlab-artillery-verdicts-" });
  const app = startApp();
  console.log(`Artillery verdicts: ${artillery}; loadlab ${MAIN}; load average ${loadAverage()}`);
  const rows: string[][] = [];
  const record: Record<string, { artillery: ToolRun; loadlab: ToolRun; verdict: string }> = {};
  let same = 0;
  let skipped = 0;
  try {
    for (const name of cases) {
      const checkout = checkouts[name];
      const script = checkout?.script ?? name;
      if (checkout !== undefined && !existsSync(join(CORPUS, script))) {
        rows.push([name, "", "", "", "", "", "skipped: not checked out (README.md)"]);
        skipped++;
        continue;
      }
      const args = checkout?.args.split(/\s+/) ?? argsOf(join(CORPUS, name));
      app.restartIds();
      const a = await runTool(artillery, name, script, args, work, app.answered);
      app.restartIds();
      const l = await runTool(Deno.execPath(), name, script, args, work, app.answered);
      const row = compareRuns(name, a, l);
      record[name] = { artillery: a, loadlab: l, verdict: row.at(-1)! };
      console.error(`${name}: ${row.at(-1)}`);
      if (row.at(-1) === "same") same++;
      rows.push(row);
    }
  } finally {
    await app.server.shutdown();
  }
  const recordTo = flags.text("record");
  if (recordTo) Deno.writeTextFileSync(recordTo, JSON.stringify(record, null, 2) + "\n");
  printTable([
    ["script", "exit a/ll", "vusers a/ll", "failed a/ll", "requests a/ll", "app a/ll", "verdict"],
    ...rows,
  ]);
  console.log(
    `\n${same} of ${rows.length - skipped} scripts reach Artillery's verdict on loadlab ` +
      `(${skipped} not checked out, skipped); load average ${loadAverage()}`,
  );
  return 0;
}

/** A script whose repository's licence does not let it be copied here: where its checkout puts it. */
interface Checkout {
  /** The script's path under the corpus folder once checked out (`owner+name/path`). */
  script: string;
  /** The command line's flags, space-separated. */
  args: string;
}

/** The script's `# args:` line, split on spaces (none: no flags). */
export function argsOf(path: string): string[] {
  const line = /^# args:(.*)$/m.exec(Deno.readTextFileSync(path))?.[1] ?? "";
  return line.trim().split(/\s+/).filter((a) => a !== "");
}

/** One tool's run: each writes Artillery's report with `-o`, loadlab its results.json to `--out-dir` too. */
async function runTool(
  program: string,
  name: string,
  script: string,
  args: string[],
  work: string,
  answered: () => number,
): Promise<ToolRun> {
  const isArtillery = program !== Deno.execPath();
  const report = join(work, `${isArtillery ? "artillery" : "loadlab"}-${name}.json`);
  const outDir = join(work, `out-${name}`);
  for (const path of [report, outDir]) {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch { /* not there */ }
  }
  const before = answered();
  const out = await new Deno.Command(program, {
    args: isArtillery
      ? ["run", ...args, "-o", report, script]
      : ["run", "-A", MAIN, "run", script, ...args, "-o", report, "--out-dir", outDir],
    cwd: CORPUS,
    env: { NO_COLOR: "1", ARTILLERY_DISABLE_TELEMETRY: "true" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(RUN_LIMIT_MS),
  }).output();
  const stderr = new TextDecoder().decode(out.stderr).split("\n").filter((l) => /^\S/.test(l));
  const run: ToolRun = {
    code: out.code,
    created: null,
    failed: null,
    requests: null,
    answered: answered() - before,
    note: stderr[0] ?? "",
  };
  return withReport(run, report);
}

/** `run` with the counts of the Artillery report (`-o`, either tool's) at `path`, or `run` as it is. */
export function withReport(run: ToolRun, path: string): ToolRun {
  try {
    const counters = JSON.parse(Deno.readTextFileSync(path)).aggregate.counters as Record<string, number>;
    return {
      ...run,
      created: counters["vusers.created"] ?? 0,
      failed: counters["vusers.failed"] ?? 0,
      requests: counters["http.requests"] ?? 0,
      counters,
    };
  } catch {
    return run;
  }
}

/** A row: each part compared; `same` when every part is. */
export function compareRuns(name: string, a: ToolRun, l: ToolRun): string[] {
  const near = (x: number | null, y: number | null) =>
    x === y || (x !== null && y !== null && Math.abs(x - y) <= Math.max(1, 0.1 * Math.max(x, y)));
  const cell = (x: number | null, y: number | null) => `${x ?? "-"}/${y ?? "-"}`;
  // Every status code, error and vusers counter either report holds, when both wrote one.
  const compared =
    /^(http\.codes\.|errors\.|vusers\.(created|failed|completed|skipped)$|plugins\.metrics-by-endpoint\..*\.codes\.)/;
  const keys = a.counters && l.counters
    ? [...new Set([...Object.keys(a.counters), ...Object.keys(l.counters)])].filter((k) => compared.test(k))
    : [];
  const counters = keys.sort().filter((k) => !near(a.counters![k] ?? 0, l.counters![k] ?? 0))
    .map((k) => `${k} ${cell(a.counters![k] ?? 0, l.counters![k] ?? 0)}`);
  const parts = [
    a.code === l.code,
    near(a.created, l.created),
    near(a.failed, l.failed),
    near(a.requests, l.requests),
    near(a.answered, l.answered),
    counters.length === 0,
  ];
  const verdict = parts.every(Boolean)
    ? "same"
    : l.note !== "" && l.created === null
    ? `differs: ${l.note.slice(0, 100)}`
    : `differs${counters.length ? `: ${counters.join(", ")}` : ""}`;
  return [
    name,
    `${a.code}/${l.code}`,
    cell(a.created, l.created),
    cell(a.failed, l.failed),
    cell(a.requests, l.requests),
    cell(a.answered, l.answered),
    verdict,
  ];
}

/** The 1-minute load average (the machine is shared: a row's verdict is the point, not its times). */
function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
