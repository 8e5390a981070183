/**
 * @module
 * `deno task bench --grpc`: unary gRPC calls, loadlab against ghz (the tool people pick for gRPC), each on
 * one core (`taskset`), against grpc-go (bench/grpc_greeter/, its own Go module, built here with `go build`)
 * pinned to the other core. Both tools get ghz's own flags, `-c 50 --connections 4 --cpus 1 --format json`
 * (50 calls in flight over 4 connections, one core's worth of threads), and call
 * `helloworld.Greeter/SayHello` for the same duration (ghz's `-z`, loadlab's `-d`), start-up included for
 * both (neither is warmed up). Rounds run the tools in turn, every other round in reverse, and print calls
 * per second (OK answers in each one's ghz JSON), the ratio to ghz in each round and the CPU time per call
 * (the tool's user + system time from this process's reaped-children times, start-up included), then the
 * medians.
 *
 *   deno task bench --grpc [--duration 5s] [--concurrency 50] [--connections 4] [--rounds 3]
 *     [--server go|node]
 *
 * `--server node` runs the grpc-js greeter instead (examples/grpc/server.js): one Node thread serves far
 * fewer calls than either tool makes, so there both are bound by the server and the CPU per call is what
 * tells them apart.
 *
 * ghz is found as $GHZ, /tmp/peers/go/ghz, or on PATH (`go install github.com/bojand/ghz/cmd/ghz@latest`);
 * without it the bench says so and runs loadlab alone. Without Go it stops, saying why.
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";
import { pinning, timed } from "./tool_run.ts";
import { loadAvg } from "./h2.ts";
import { loadlabV8Flags } from "./tool_run.ts";
import { UsageError } from "../cli/usage_error.ts";

const FLAGS = [
  { long: "grpc", takesValue: false },
  { long: "duration", short: "d", takesValue: true, example: "5s" },
  { long: "concurrency", short: "c", takesValue: true, example: "50" },
  { long: "connections", takesValue: true, example: "4" },
  { long: "rounds", takesValue: true, example: "3" },
  { long: "server", takesValue: true, example: "node" },
];

/**
 * The greeter to run: `go` (grpc-go, built here) or `node` (@grpc/grpc-js, examples/grpc/server.js, which
 * needs `npm install --prefix examples`): against the Node one both tools are bound by the server.
 */
async function serverCommand(which: string, dir: string): Promise<{ name: string; command: string[] }> {
  if (which === "go") return { name: "grpc-go", command: [await buildGreeter(dir)] };
  if (which !== "node") throw new UsageError(`--server ${JSON.stringify(which)}: go or node`);
  const node = findProgram("node");
  const script = new URL("../examples/grpc/server.js", import.meta.url).pathname;
  const installed = new URL("../examples/node_modules/@grpc/grpc-js/package.json", import.meta.url).pathname;
  if (node === null || !isExecutable(node) || !(await Deno.stat(installed).then(() => true, () => false))) {
    throw new UsageError("--server node needs node on PATH and npm install --prefix examples");
  }
  return { name: "@grpc/grpc-js on Node", command: [node, script] };
}

const PROTO = new URL("../examples/grpc/greeter.proto", import.meta.url).pathname;
const CALL = "helloworld.Greeter/SayHello";
const MESSAGE = '{"name":"loadlab"}';

interface Tool {
  name: string;
  argv: string[];
}

/** OK calls from a tool's stdout: ghz's JSON report, which both print. */
function okCalls(stdout: string): number {
  return JSON.parse(stdout).statusCodeDistribution?.OK ?? 0;
}

interface Row {
  tool: string;
  callsPerSec: number;
  cpuUsPerCall: number;
}

/** ghz's path, or null with why it is absent. */
export function findGhz(): { path: string | null; why: string } {
  const candidates = [Deno.env.get("GHZ"), "/tmp/peers/go/ghz", findProgram("ghz")];
  const path = candidates.find((p): p is string => typeof p === "string" && isExecutable(p)) ?? null;
  return { path, why: path ? "" : "ghz not found ($GHZ, /tmp/peers/go/ghz, PATH)" };
}

/** Builds the Go greeter into `dir`; its path, or throws with why. */
export async function buildGreeter(dir: string): Promise<string> {
  const go = findProgram("go");
  if (!go) throw new Error("no go on PATH to build bench/grpc_greeter");
  const out = `${dir}/grpc_greeter`;
  const built = await new Deno.Command(go, {
    args: ["build", "-o", out, "."],
    cwd: new URL("./grpc_greeter/", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!built.success) {
    throw new Error(`go build failed: ${new TextDecoder().decode(built.stderr).slice(-600)}`);
  }
  return out;
}

/** Starts the greeter pinned by `pin` (on `listenPort`, 0: any); its process and port once it said READY. */
export async function startGreeter(
  command: string[],
  pin: string[],
  listenPort = 0,
): Promise<{ child: Deno.ChildProcess; port: number }> {
  const argv = [...pin, ...command];
  const env = { PORT: `${listenPort}` };
  const child = new Deno.Command(argv[0], { args: argv.slice(1), env, stdout: "piped" })
    .spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const line = (await reader.read()).value ?? "";
  reader.releaseLock();
  const port = Number(/READY (\d+)/.exec(line)?.[1]);
  if (!(port > 0)) throw new Error(`the greeter did not start: ${line}`);
  return { child, port };
}

async function toolsOf(
  port: number,
  pin: string[],
  durationSec: number,
  concurrency: number,
  connections: number,
): Promise<Tool[]> {
  const tools: Tool[] = [];
  const ghzFlags = [
    "-c",
    `${concurrency}`,
    "--connections",
    `${connections}`,
    "--cpus",
    "1",
    "--format",
    "json",
  ];
  const ghz = findGhz();
  if (ghz.path) {
    tools.push({
      name: "ghz",
      argv: [
        ...pin,
        ghz.path,
        "--insecure",
        "--proto",
        PROTO,
        "--call",
        CALL.replace("/", "."),
        "-d",
        MESSAGE,
      ]
        .concat([...ghzFlags, "-z", `${durationSec}s`, `127.0.0.1:${port}`]),
    });
  } else console.log(`ghz rows skipped: ${ghz.why}; go install github.com/bojand/ghz/cmd/ghz@latest`);
  tools.push({
    name: "loadlab",
    argv: [...pin, Deno.execPath(), "run", "-A", ...await loadlabV8Flags()]
      .concat([new URL("../main.ts", import.meta.url).pathname, "attack", `grpc://127.0.0.1:${port}`])
      .concat(["--call", CALL, "--proto", PROTO, "-b", MESSAGE, ...ghzFlags, "-d", `${durationSec}s`]),
  });
  return tools;
}

/** One round: every tool once, in `order`. */
async function round(tools: Tool[], order: number[], durationSec: number): Promise<Row[]> {
  const rows: Row[] = new Array(tools.length);
  for (const k of order) {
    const { stdout, cpuSec } = await timed(tools[k].argv);
    const calls = okCalls(stdout);
    rows[k] = { tool: tools[k].name, callsPerSec: calls / durationSec, cpuUsPerCall: (cpuSec * 1e6) / calls };
  }
  return rows;
}

export async function main(argv: string[]): Promise<number> {
  const flags = new FlagValues(tokenize(argv, FLAGS, {}), FLAGS);
  const durationSec = (flags.positiveDurationMs("duration") ?? 5000) / 1000;
  const concurrency = flags.positiveInt("concurrency") ?? 50;
  const connections = flags.positiveInt("connections") ?? 4;
  const rounds = flags.positiveInt("rounds") ?? 3;
  const pin = await pinning();
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-grpc-" });
  const server = await serverCommand(flags.text("server") ?? "go", dir);
  const { child, port } = await startGreeter(server.command, pin.target);
  const all: Row[][] = [];
  try {
    const tools = await toolsOf(port, pin.generator, durationSec, concurrency, connections);
    console.log(
      `gRPC unary ${CALL}: ${concurrency} calls at once over ${connections} connections (-c ${concurrency} ` +
        `--connections ${connections} --cpus 1), ${durationSec}s x ${rounds} rounds ` +
        `against ${server.name}; ${pin.note}; start-up included for every tool`,
    );
    const loadBefore = loadAvg();
    for (let r = 0; r < rounds; r++) {
      const order = tools.map((_, k) => r % 2 === 0 ? k : tools.length - 1 - k);
      const rows = await round(tools, order, durationSec);
      all.push(rows);
      const base = rows[0].callsPerSec;
      console.log(
        `round ${r + 1}${r % 2 === 0 ? "" : " (reversed)"}: ` +
          rows.map((x) =>
            `${x.tool} ${Math.round(x.callsPerSec)} calls/s (${(x.callsPerSec / base).toFixed(3)}x, ` +
            `${x.cpuUsPerCall.toFixed(2)} us CPU/call)`
          ).join("; "),
      );
    }
    printMedians(all);
    console.log(`load average: ${loadBefore} before, ${loadAvg()} after`);
  } finally {
    child.kill();
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return 0;
}

function printMedians(all: Row[][]): void {
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (let k = 0; k < all[0].length; k++) {
    const ratios = all.map((rows) => rows[k].callsPerSec / rows[0].callsPerSec);
    console.log(
      `${all[0][k].tool}: median ${Math.round(median(all.map((r) => r[k].callsPerSec)))} calls/s, ratio to ` +
        `${all[0][0].tool} ${median(ratios).toFixed(3)}x, ${
          median(all.map((r) => r[k].cpuUsPerCall)).toFixed(2)
        } ` +
        "us CPU/call (start-up included)",
    );
  }
}
