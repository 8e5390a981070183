/**
 * @module
 * Bad input end to end (issue 9): every command run as users run it with a wrong type, an out-of-range
 * value, an unknown name (flag, command, field, preset, target, load), a missing file or an unreadable
 * one (a folder given as a file, a path under a regular file), and more connections than the open-file
 * limit allows (under `ulimit -n 256`). Each case must exit 2 with the problem on stderr naming the item
 * (the flag, or the field path such as `loads.burst.phases[1].rampTo`) and the fix, before any load.
 *
 * One line, except for experiment files: those print one line per problem, every problem at once (k6's
 * `validate()` habit: fixing a file should not take one run per typo), each line `FILE: PATH: message`;
 * the multi-problem case checks that. "Before any load" is checked three ways: cases that would send
 * load point at a real Deno.serve counter on 127.0.0.1 that must see no request; `run` cases must not
 * have created their output folder (it is made, and target logs written into it, only after every
 * check passed, right before the first target starts); and no process carrying the case's
 * LOADLAB_RUN_ID is left. `serve` and `site` would block until Ctrl-C, so exiting 2 at all shows they
 * never served. Cases run in parallel batches of 8 (each is a `deno run` start-up, mostly waiting).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { markedProcesses } from "./marked_processes.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Where a case runs: the counter's URL, a folder with a file and a folder in it, a base experiment. */
interface Ctx {
  url: string;
  dir: string;
  file: string;
  folder: string;
  /** A valid experiment against the counter; cases edit it with `edit()`. */
  base: string;
}

interface Case {
  name: string;
  /** The command line after `deno run -A main.ts`. */
  args?: (c: Ctx) => string[];
  /** An experiment file: `run FILE --out-dir D` is the command line. */
  yaml?: (c: Ctx) => string;
  /** Extra flags after the experiment file. */
  runFlags?: string[];
  /** What the one line (or each line) must name, in order. */
  names: RegExp[];
  /** Run under `ulimit -n` this low. */
  ulimit?: number;
}

const BASE = (url: string) =>
  `name: base
targets:
  t: { url: "${url}" }
loads:
  closed: { model: connections, connections: 2, duration: 200ms }
  burst:
    model: rate
    phases:
      - { duration: 100ms, rate: 10 }
      - { duration: 100ms, rate: 10, rampTo: 20 }
`;

const edit = (from: string, to: string) => (c: Ctx) => {
  ok(c.base.includes(from), `the base experiment has ${from}`);
  return c.base.replace(from, to);
};
const add = (text: string) => (c: Ctx) => c.base + text;
const target = (spec: string) => edit(`t: { url: "`, `t: ${spec}\n  u: { url: "`);
const attack = (...rest: string[]) => (c: Ctx) => ["attack", c.url, ...rest];

const ATTACK: Case[] = [
  { name: "attack -c wrong type", args: attack("-c", "abc"), names: [/-c "abc"/] },
  { name: "attack -c negative", args: attack("-c", "-3"), names: [/-c "-3"/] },
  { name: "attack -c 0", args: attack("-c", "0"), names: [/-c "0"/] },
  { name: "attack -d 0s", args: attack("-d", "0s"), names: [/-d "0s"/] },
  { name: "attack -d bad unit", args: attack("-d", "10x"), names: [/-d "10x"/] },
  { name: "attack -n 0", args: attack("-n", "0"), names: [/-n "0"/] },
  { name: "attack -R negative", args: attack("-R", "-5"), names: [/-R "-5"/] },
  { name: "attack --ramp-to wrong type", args: attack("--ramp-to", "fast"), names: [/--ramp-to "fast"/] },
  { name: "attack --phases negative rate", args: attack("--phases", "1s@-1"), names: [/--phases/] },
  { name: "attack --phases zero length", args: attack("--phases", "0s@10"), names: [/--phases/] },
  { name: "attack --model unknown", args: attack("--model", "closed"), names: [/--model "closed"/] },
  {
    name: "attack --max-connections 0",
    args: attack("-R", "10", "--max-connections", "0"),
    names: [/--max-connections/],
  },
  {
    name: "attack --pre-connect negative",
    args: attack("-R", "10", "--pre-connect", "-1"),
    names: [/--pre-connect/],
  },
  { name: "attack -m not a method", args: attack("-m", "G E T"), names: [/-m "G E T"/] },
  { name: "attack -H without colon", args: attack("-H", "nocolon"), names: [/-H "nocolon"/] },
  {
    name: "attack --body-file missing",
    args: (c) => ["attack", c.url, "--body-file", `${c.dir}/none.json`],
    names: [/--body-file/],
  },
  {
    name: "attack --body-file a folder",
    args: (c) => ["attack", c.url, "--body-file", c.folder],
    names: [/--body-file/],
  },
  {
    name: "attack --body-file under a file",
    args: (c) => ["attack", c.url, "--body-file", `${c.file}/x`],
    names: [/--body-file/],
  },
  { name: "attack --mix weight 0", args: attack("--mix", "GET /a 0"), names: [/--mix "GET \/a 0"/] },
  { name: "attack --timeout 0s", args: attack("--timeout", "0s"), names: [/--timeout "0s"/] },
  { name: "attack -p 0", args: attack("-p", "0"), names: [/-p "0"/] },
  { name: "attack --transport unknown", args: attack("--transport", "fast"), names: [/--transport/] },
  { name: "attack -w 0", args: attack("-w", "0"), names: [/-w "0"/] },
  { name: "attack --interval 0s", args: attack("--interval", "0s"), names: [/--interval "0s"/] },
  {
    name: "attack --interval-histograms unknown",
    args: attack("--interval-histograms", "all"),
    names: [/--interval-histograms/],
  },
  { name: "attack --segment out of range", args: attack("--segment", "5/4"), names: [/--segment 5\/4/] },
  { name: "attack --start-at not a time", args: attack("--start-at", "soon"), names: [/--start-at "soon"/] },
  { name: "attack --threshold unknown metric", args: attack("--threshold", "p98<1ms"), names: [/p98/] },
  {
    name: "attack --dashboard-port out of range",
    args: attack("--dashboard-port", "70000"),
    names: [/--dashboard-port "70000"/],
  },
  { name: "attack --host empty", args: attack("--host", ""), names: [/--host ""/] },
  {
    name: "attack --host that does not resolve",
    args: attack("-n", "5", "--dashboard-port", "0", "--host", "no-such-host.invalid"),
    names: [/--dashboard: cannot listen on no-such-host\.invalid/],
  },
  { name: "attack -T empty", args: attack("-T", ""), names: [/-T "": must not be empty/] },
  { name: "attack unknown flag", args: attack("--bogus"), names: [/--bogus/] },
  { name: "attack flag without value", args: attack("-c"), names: [/-c: missing value/] },
  { name: "attack not an http URL", args: () => ["attack", "ftp://x/"], names: [/ftp:\/\/x\//] },
  {
    name: "attack -c over the open-file limit",
    args: attack("-c", "300", "-d", "1s"),
    names: [/-c 300.*limit is 256.*ulimit -n/],
    ulimit: 256,
  },
  {
    name: "attack --max-connections over the limit",
    args: attack("-R", "10", "--max-connections", "900"),
    names: [/--max-connections 900.*ulimit -n/],
    ulimit: 256,
  },
];

const RUN_FLAGS: Case[] = [
  {
    name: "run missing file",
    args: (c) => ["run", `${c.dir}/none.yaml`],
    names: [/none\.yaml: cannot read: no such file/],
  },
  { name: "run a folder", args: (c) => ["run", c.folder], names: [/adir: cannot read: is a folder/] },
  {
    name: "run a path under a file",
    args: (c) => ["run", `${c.file}/x.yaml`],
    names: [/x\.yaml: cannot read/],
  },
  { name: "run unknown preset", args: () => ["run", "preset:nope"], names: [/preset:nope: no such preset/] },
  {
    name: "run --only unknown target",
    yaml: (c) => c.base,
    runFlags: ["--only", "target=nope"],
    names: [/--only: no target named "nope"/],
  },
  {
    name: "run --only unknown load",
    yaml: (c) => c.base,
    runFlags: ["--only", "load=nope"],
    names: [/--only: no load named "nope"/],
  },
  {
    name: "run --set out of range",
    yaml: (c) => c.base,
    runFlags: ["--set", "repeats=0"],
    names: [/repeats: .*>= 1/],
  },
  {
    name: "run --set unknown path",
    yaml: (c) => c.base,
    runFlags: ["--set", "nope.x=1"],
    names: [/--set nope\.x=1/],
  },
  {
    name: "run --target unknown name",
    yaml: (c) => c.base,
    runFlags: ["--target", "x=http://127.0.0.1:1/"],
    names: [/--target x=/],
  },
  {
    name: "run --target not a URL",
    yaml: (c) => c.base,
    runFlags: ["--target", "t=ftp://x"],
    names: [/--target "t=ftp:\/\/x"/],
  },
  {
    name: "run --segment out of range",
    yaml: (c) => c.base,
    runFlags: ["--segment", "9/2"],
    names: [/--segment 9\/2/],
  },
  {
    name: "run --dashboard-port wrong type",
    yaml: (c) => c.base,
    runFlags: ["--dashboard-port", "x"],
    names: [/--dashboard-port "x"/],
  },
  {
    name: "run unknown flag",
    yaml: (c) => c.base,
    runFlags: ["-o", "x"],
    names: [/-o: unknown flag; use --out-dir/],
  },
  { name: "demo extra argument", args: () => ["demo", "extra"], names: [/unexpected argument "extra"/] },
  { name: "unknown command", args: () => ["attak"], names: [/unknown command "attak"/] },
];

const OTHERS: Case[] = [
  { name: "serve --port out of range", args: () => ["serve", "--port", "70000"], names: [/--port "70000"/] },
  { name: "serve --instances 0", args: () => ["serve", "--instances", "0"], names: [/--instances "0"/] },
  {
    name: "serve --balance unknown",
    args: () => ["serve", "--balance", "random"],
    names: [/--balance "random"/],
  },
  {
    name: "serve --cache-ttl negative",
    args: () => ["serve", "--cache-ttl", "-1"],
    names: [/--cache-ttl "-1"/],
  },
  {
    name: "serve --rate-limit 0",
    args: () => ["serve", "--rate-limit", "0/1s"],
    names: [/--rate-limit "0\/1s"/],
  },
  {
    name: "serve --redis not a URL",
    args: () => ["serve", "--redis", "localhost"],
    names: [/--redis "localhost"/],
  },
  {
    name: "serve --static-dir missing",
    args: (c) => ["serve", "--static-dir", `${c.dir}/none`],
    names: [/--static-dir .*no such folder/],
  },
  {
    name: "serve --static-dir a file",
    args: (c) => ["serve", "--static-dir", c.file],
    names: [/--static-dir .*not a folder/],
  },
  { name: "serve --host empty", args: () => ["serve", "--host="], names: [/--host ""/] },
  {
    name: "report missing file",
    args: (c) => ["report", `${c.dir}/none.json`],
    names: [/none\.json: cannot read/],
  },
  { name: "report a file that is not JSON", args: (c) => ["report", c.file], names: [/afile: not JSON/] },
  {
    name: "report unknown flag",
    args: () => ["report", "--bogus"],
    names: [/--bogus: unknown flag; see loadlab report --help/],
  },
  { name: "merge a folder", args: (c) => ["merge", c.folder], names: [/adir: cannot read/] },
  { name: "report -o empty", args: (c) => ["report", c.file, "-o", ""], names: [/-o "": empty path/] },
  {
    name: "merge --report empty",
    args: (c) => ["merge", c.file, "--report="],
    names: [/--report "": empty path/],
  },
  { name: "site missing folder", args: (c) => ["site", `${c.dir}/none`], names: [/none: no such folder/] },
  { name: "site a file", args: (c) => ["site", c.file], names: [/afile: is not a folder/] },
  { name: "site --static empty", args: (c) => ["site", c.folder, "--static", ""], names: [/--static ""/] },
  {
    name: "presets unknown flag",
    args: () => ["presets", "--bogus"],
    names: [/--bogus: unknown flag; see loadlab presets/],
  },
  { name: "schema takes no arguments", args: () => ["schema", "x"], names: [/takes no arguments/] },
  {
    name: "version takes no arguments",
    args: () => ["version", "x"],
    names: [/version: takes no arguments/],
  },
];

const FIELDS: Case[] = [
  {
    name: "connections wrong type",
    yaml: edit("connections: 2,", 'connections: "two",'),
    names: [/loads\.closed\.connections: expected a whole number/],
  },
  {
    name: "connections 0",
    yaml: edit("connections: 2,", "connections: 0,"),
    names: [/loads\.closed\.connections: .*>= 1/],
  },
  {
    name: "duration without unit",
    yaml: edit("duration: 200ms }", "duration: 10 }"),
    names: [/loads\.closed\.duration: expected a duration/],
  },
  {
    name: "duration 0s",
    yaml: edit("duration: 200ms }", "duration: 0s }"),
    names: [/loads\.closed\.duration: .*> 0/],
  },
  {
    name: "phase rampTo negative",
    yaml: edit("rampTo: 20", "rampTo: -20"),
    names: [/loads\.burst\.phases\[1\]\.rampTo: .*>= 0/],
  },
  {
    name: "phase duration 0s",
    yaml: edit("{ duration: 100ms, rate: 10 }", "{ duration: 0s, rate: 10 }"),
    names: [/loads\.burst\.phases\[0\]\.duration: .*> 0/],
  },
  {
    name: "model unknown",
    yaml: edit("model: connections", "model: closed"),
    names: [/loads\.closed\.model: expected one of/],
  },
  {
    name: "load field unknown",
    yaml: edit("connections: 2,", "conections: 2,"),
    names: [/loads\.closed\.conections: unknown key; did you mean "connections"/],
  },
  {
    name: "top-level key unknown",
    yaml: add("repeat: 2\n"),
    names: [/repeat: unknown key; did you mean "repeats"/],
  },
  { name: "repeats 0", yaml: add("repeats: 0\n"), names: [/repeats: .*>= 1/] },
  { name: "interval 0s", yaml: add("interval: 0s\n"), names: [/^[^:]+: interval: .*>= 10ms/] },
  { name: "order unknown", yaml: add("order: random\n"), names: [/order: expected one of/] },
  {
    name: "baseline unknown target",
    yaml: add("baseline: nope\n"),
    names: [/baseline: no target named "nope"/],
  },
  {
    name: "threshold unknown load",
    yaml: add('thresholds: [{expr: "p99 < 1s", load: nope}]\n'),
    names: [/thresholds\[0\]\.load: no load named "nope"/],
  },
  {
    name: "sweep parameter unknown",
    yaml: add("sweeps: [{parameter: load.bogus, values: [1]}]\n"),
    names: [/sweeps\[0\]\.parameter: load\.bogus cannot be varied/],
  },
  {
    name: "sweep value 0 connections",
    yaml: add("sweeps: [{parameter: load.connections, values: [4, 0], loads: [closed]}]\n"),
    names: [/sweeps\[0\]\.values\[1\]: connections must be >= 1/],
  },
  {
    name: "search maxProbes 0",
    yaml: add(
      'search: {parameter: load.connections, load: closed, range: [1, 10], slo: "p99 < 1s", maxProbes: 0}\n',
    ),
    names: [/search\.maxProbes: .*>= 1/],
  },
  { name: "name not a name", yaml: edit("name: base", 'name: "a b"'), names: [/name: names use letters/] },
  {
    name: "target kind unknown",
    yaml: target("{ kind: builtn }"),
    names: [/targets\.t\.kind: .*did you mean "builtin"/],
  },
  {
    name: "target port negative",
    yaml: target("{ kind: builtin, port: -1 }"),
    names: [/targets\.t\.port: .*>= 0/],
  },
  {
    name: "target instances 0",
    yaml: target("{ kind: builtin, instances: 0 }"),
    names: [/targets\.t\.instances: .*>= 1/],
  },
  {
    name: "target cms key unknown",
    yaml: target("{ kind: builtin, cms: { pool: 3 } }"),
    names: [/targets\.t\.cms\.pool: unknown key/],
  },
  {
    name: "target staticDir missing",
    yaml: target("{ kind: builtin, staticDir: /nonexistent/loadlab }"),
    names: [/targets\.t\.staticDir: .*no such folder/],
  },
  {
    name: "external command missing",
    yaml: target('{ kind: external, command: loadlab-no-such-program, url: "http://127.0.0.1:1" }'),
    names: [/targets\.t\.command: .*no such program/],
  },
  {
    name: "external cwd a file",
    yaml: (c) => target(`{ kind: external, command: sh, cwd: ${c.file}, url: "http://127.0.0.1:1" }`)(c),
    names: [/targets\.t\.cwd: .*not a folder/],
  },
  {
    name: "external url without http://",
    yaml: target('{ kind: external, command: sh, url: "localhost:3000" }'),
    names: [/targets\.t\.url: url must start with http:\/\//],
  },
  {
    name: "sweep target.instances 0",
    yaml: (c) =>
      target("{ kind: builtin }")(c) + "sweeps: [{parameter: target.instances, values: [0], targets: [t]}]\n",
    names: [/sweeps\[0\]\.values\[0\]: instances must be >= 1/],
  },
  {
    name: "count maxConnections without rate",
    yaml: edit(
      "model: connections, connections: 2, duration: 200ms",
      "model: count, requests: 5, maxConnections: 10",
    ),
    names: [/loads\.closed\.maxConnections: caps open pacing only/],
  },
  {
    name: "proxy upstream unknown",
    yaml: target("{ kind: proxy, upstream: nope }"),
    names: [/targets\.t\.upstream: no target named "nope"/],
  },
  {
    name: "proxy rateLimit.limit 0",
    yaml: target("{ kind: proxy, upstream: u, rateLimit: { limit: 0, windowMs: 1000 } }"),
    names: [/targets\.t\.rateLimit\.limit: .*>= 1/],
  },
  {
    name: "request weight 0",
    yaml: add("requests: [{path: /a, weight: 0}]\n"),
    names: [/requests\[0\]\.weight: .*> 0/],
  },
  {
    name: "flow think without unit",
    yaml: add("flows: [{name: f, steps: [{think: 5}]}]\n"),
    names: [/flows\[0\]\.steps\[0\]\.think: expected a duration/],
  },
  {
    name: "workers 0",
    yaml: edit("connections: 2,", "connections: 2, workers: 0,"),
    names: [/loads\.closed\.workers: .*>= 1/],
  },
  {
    name: "throughput rate 0",
    yaml: edit(
      "model: connections, connections: 2, duration: 200ms",
      "model: throughput, rate: 0, duration: 1s",
    ),
    names: [/loads\.closed\.rate: .*> 0/],
  },
  {
    name: "count requests wrong type",
    yaml: edit("model: connections, connections: 2, duration: 200ms", "model: count, requests: many"),
    names: [/loads\.closed\.requests: expected/],
  },
  {
    name: "quick section broken",
    yaml: add("quick: { repeats: 0 }\n"),
    names: [/repeats: .*\(with --quick\)/],
  },
  { name: "not YAML", yaml: () => "name: [\n", names: [/line \d+, column \d+: not valid YAML/] },
  {
    name: "three problems: one line each",
    yaml: (c) =>
      edit("connections: 2,", "connections: 0,")(c).replace("rampTo: 20", "rampTo: -20") + "repeats: 0\n",
    names: [/loads\.closed\.connections/, /loads\.burst\.phases\[1\]\.rampTo/, /repeats/],
  },
  {
    name: "connections over the open-file limit",
    yaml: edit("connections: 2,", "connections: 300,"),
    names: [/loads\.closed\.connections: 300 needs 300 sockets.*limit is 256.*ulimit -n 512/],
    ulimit: 256,
  },
  {
    name: "maxConnections over the open-file limit",
    yaml: edit("model: rate\n", "model: rate\n    maxConnections: 1000\n"),
    names: [/loads\.burst\.maxConnections: 1000 needs.*ulimit -n/],
    ulimit: 256,
  },
];

/** Words a line uses when it says how to fix the problem. */
const FIX =
  /e\.g\.|did you mean|must|expected|use |give |write |allowed|raise it|drop|needs|names use|no such|cannot|not a|takes no|unexpected|see loadlab|the (targets|loads|keys)[^;]* are/i;

async function runCase(c: Case, ctx: Ctx, i: number): Promise<void> {
  const outDir = `${ctx.dir}/out-${i}`;
  let args = c.args?.(ctx) ?? [];
  if (c.yaml) {
    const file = `${ctx.dir}/case-${i}.yaml`;
    await Deno.writeTextFile(file, c.yaml(ctx));
    args = ["run", file, "--out-dir", outDir, ...(c.runFlags ?? [])];
  }
  const runId = `bad-input-${Deno.pid}-${i}`;
  const deno = [Deno.execPath(), "run", "-A", MAIN, ...args];
  const command = c.ulimit
    ? ["sh", ["-c", `ulimit -n ${c.ulimit} && exec "$@"`, "sh", ...deno]] as const
    : [deno[0], deno.slice(1)] as const;
  const out = await new Deno.Command(command[0], {
    args: [...command[1]],
    cwd: ctx.dir,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", LOADLAB_RUN_ID: runId },
    signal: AbortSignal.timeout(30_000),
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  const what = `${c.name} (${args.join(" ")}):\n${stderr}`;
  assertEquals(out.code, 2, what);
  assertEquals(lines.length, c.names.length, `one line per problem: ${what}`);
  c.names.forEach((pattern, j) =>
    ok(pattern.test(lines[j]), `line ${j + 1} names the item ${pattern}: ${what}`)
  );
  for (const line of lines) ok(FIX.test(line), `says the fix: ${line}`);
  if (c.yaml) ok(!(await exists(outDir)), `nothing was started: ${outDir} exists for ${c.name}`);
  assertEquals(markedProcesses(runId).map((p) => p.command), [], `nothing left running: ${c.name}`);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Cases at once: each is mostly a `deno run` start-up, so 8 keep two cores busy without thrashing. */
const BATCH = 8;

const ALL = [...ATTACK, ...RUN_FLAGS, ...OTHERS, ...FIELDS];

Deno.test(`bad input: ${ALL.length} cases exit 2 with a line naming the item and the fix, before any load`, async (t) => {
  let requests = 0;
  const counter = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return new Response("ok");
  });
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bad-input-" });
  try {
    await Deno.writeTextFile(`${dir}/afile`, "hi\n");
    await Deno.mkdir(`${dir}/adir`);
    const url = `http://127.0.0.1:${counter.addr.port}/`;
    const ctx: Ctx = { url, dir, file: `${dir}/afile`, folder: `${dir}/adir`, base: BASE(url) };
    for (let i = 0; i < ALL.length; i += BATCH) {
      const batch = ALL.slice(i, i + BATCH);
      const results = await Promise.allSettled(batch.map((c, j) => runCase(c, ctx, i + j)));
      for (const [j, r] of results.entries()) {
        await t.step({
          name: batch[j].name,
          fn: () => {
            if (r.status === "rejected") throw r.reason;
          },
        });
      }
    }
    assertEquals(requests, 0, "no request reached the counting target");
  } finally {
    await counter.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
