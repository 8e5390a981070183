/**
 * @module
 * `deno task bench --ws`: WebSocket closed echo, loadlab against gcannon `--ws` (HttpArena's io_uring
 * generator), one worker or thread on one core, 50 connections, small messages, against one fast echo
 * server (bench/ws_echo_server.c, built here with gcc) pinned to the other core. Rounds run the tools
 * in turn, every other round in reverse (A/B, B/A), and print messages per second, the ratio to
 * gcannon in each round (three decimals: the tools are within 1% of each other), the CPU time per
 * message (the tool's user + system time from this process's reaped-children times, start-up included)
 * and the load average before and after. loadlab runs once per transport named by `--transports`
 * (default `io_uring,epoll`: the experimental io_uring transport beside the epoll one it is measured
 * against), with the V8 flags of the `loadlab` task in deno.json (as `tools/loadlab` and the compiled
 * binary run it); each row names the transport the run recorded, so a fallback shows.
 *
 * Both tools count over the same window. gcannon connects, runs its load for 100 ms, then resets its
 * counters and counts for the duration: its start-up is never in its figure. loadlab runs with
 * `--warmup 100ms`, which leaves its connects and first 100 ms of messages out the same way; `--warmup 0`
 * counts loadlab's start-up in (gcannon's stays out), the figure a user's run without a warm-up gets.
 *
 * On a fast machine both tools reach the echo server's limit (its core is as busy under either), so the
 * ratio then says little of the generators. `--share-core` runs a busy loop on the generators' CPU beside
 * each tool, so each gets about half of it and is the bottleneck: the ratio is then of what a message
 * costs each generator, and stays put when the machine's speed moves between rounds.
 *
 *   deno task bench --ws [--duration 5s] [--connections 50] [--rounds 3] [--message hello]
 *                        [--transports io_uring,epoll] [--warmup 100ms] [--share-core]
 *
 * gcannon is found as $GCANNON, /tmp/gcannon-build/gcannon, or on PATH; without it the bench prints
 * why and how to build it, and runs loadlab alone. To build it (liburing 2.4 or newer):
 *   git clone https://github.com/axboe/liburing && (cd liburing && ./configure && make -C src)
 *   git clone <gcannon's repository> gcannon && make -C gcannon LIBURING=../liburing
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";
import { loadlabV8Flags, pinning, timed } from "./tool_run.ts";
import { loadAvg } from "./h2.ts";

const FLAGS = [
  { long: "ws", takesValue: false },
  { long: "duration", short: "d", takesValue: true, example: "5s" },
  { long: "connections", short: "c", takesValue: true, example: "50" },
  { long: "rounds", takesValue: true, example: "3" },
  { long: "message", takesValue: true, example: "hello" },
  { long: "transports", takesValue: true, example: "io_uring,epoll" },
  { long: "warmup", takesValue: true, example: "100ms" },
  { long: "share-core", takesValue: false },
];

/** What gcannon runs before it resets its counters (its main.c: connects, then 100 ms of load). */
const GCANNON_WARMUP_MS = 100;

interface Row {
  tool: string;
  messagesPerSec: number;
  cpuUsPerMessage: number;
}

/** gcannon's path, or null with why it is absent. */
export function findGcannon(): { path: string | null; why: string } {
  const candidates = [Deno.env.get("GCANNON"), "/tmp/gcannon-build/gcannon", findProgram("gcannon")];
  const path = candidates.find((p): p is string => typeof p === "string" && isExecutable(p)) ?? null;
  return { path, why: path ? "" : "gcannon not found ($GCANNON, /tmp/gcannon-build/gcannon, PATH)" };
}

/** Builds the echo server into `dir`; its path, or throws with why. */
export async function buildServer(dir: string): Promise<string> {
  const gcc = findProgram("gcc") ?? findProgram("cc");
  if (!gcc) throw new Error("no C compiler (gcc or cc) to build bench/ws_echo_server.c");
  const source = new URL("./ws_echo_server.c", import.meta.url).pathname;
  const out = `${dir}/ws_echo_server`;
  const built = await new Deno.Command(gcc, { args: ["-O2", "-o", out, source] }).output();
  if (!built.success) {
    throw new Error(`building the echo server failed: ${new TextDecoder().decode(built.stderr)}`);
  }
  return out;
}

/** A busy loop pinned by `pin` (taskset's argv), or throws. */
function spin(pin: string[]): Deno.ChildProcess {
  const argv = [...pin, "sh", "-c", "while :; do :; done"];
  return new Deno.Command(argv[0], { args: argv.slice(1), stdout: "null", stderr: "null" }).spawn();
}

/** Stops a busy loop and reaps it (after the tool's CPU time was read, so it is never counted there). */
async function stop(spinner: Deno.ChildProcess | null): Promise<void> {
  if (spinner === null) return;
  spinner.kill("SIGKILL");
  await spinner.status;
}

export async function main(argv: string[]): Promise<number> {
  const flags = new FlagValues(tokenize(argv, FLAGS, {}), FLAGS);
  const durationSec = (flags.positiveDurationMs("duration") ?? 5000) / 1000;
  const connections = flags.positiveInt("connections") ?? 50;
  const rounds = flags.positiveInt("rounds") ?? 3;
  const message = flags.text("message") ?? "hello";
  const transports = (flags.text("transports") ?? "io_uring,epoll").split(",").filter((t) => t !== "");
  const warmupMs = flags.durationMs("warmup") ?? GCANNON_WARMUP_MS;
  const shareCore = flags.has("share-core");
  const gcannon = findGcannon();
  if (!gcannon.path) console.log(`gcannon rows skipped: ${gcannon.why}; see bench/ws.ts for how to build it`);
  const pin = await pinning();
  if (shareCore && pin.generator.length === 0) {
    console.log(`--share-core needs the generators pinned to one CPU (${pin.note})`);
    return 1;
  }
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-ws-" });
  const port = 18000 + Math.floor(Math.random() * 2000);
  const serverPath = await buildServer(dir);
  const serverArgv = [...pin.target, serverPath, String(port)];
  const server = new Deno.Command(serverArgv[0], {
    args: serverArgv.slice(1),
    stdout: "null",
    stderr: "null",
  })
    .spawn();
  await new Promise((r) => setTimeout(r, 300));
  const url = `ws://127.0.0.1:${port}/ws`;
  const mainTs = new URL("../main.ts", import.meta.url).pathname;
  const tools: Array<{ tool: string; argv: string[]; parse(stdout: string): number }> = [];
  if (gcannon.path) {
    tools.push({
      tool: "gcannon --ws",
      argv: [
        ...pin.generator,
        gcannon.path,
        url.replace("ws:", "http:"),
        "--ws",
        "--ws-msg",
        message,
        "-c",
        `${connections}`,
        "-t",
        "1",
        "-d",
        `${durationSec}s`,
        "--json",
      ],
      parse: (s) => JSON.parse(s.slice(s.indexOf("{"))).ws_frames,
    });
  }
  for (const transport of transports) {
    tools.push({
      tool: `loadlab (${transport})`,
      argv: [
        ...pin.generator,
        Deno.execPath(),
        "run",
        "-A",
        ...await loadlabV8Flags(),
        mainTs,
        "attack",
        url,
        "--ws-message",
        message,
        "-c",
        `${connections}`,
        "-d",
        `${durationSec}s`,
        "--transport",
        transport,
        "--warmup",
        `${warmupMs}ms`,
        "--json",
      ],
      parse: (s) => {
        const result = JSON.parse(s);
        if (result.transport !== transport) {
          console.log(
            `loadlab asked for ${transport} ran on ${result.transport}: ${result.transportFallback}`,
          );
        }
        return result.requests;
      },
    });
  }
  console.log(
    `WebSocket closed echo: ${connections} connections, ${
      JSON.stringify(message)
    }, ${durationSec}s x ${rounds} rounds; ${pin.note}; counted after a ${GCANNON_WARMUP_MS} ms warm-up ` +
      `(gcannon) and ${warmupMs} ms (loadlab --warmup)` +
      (shareCore ? "; a busy loop shares the generators' CPU (each tool gets about half of it)" : ""),
  );
  const loadBefore = loadAvg();
  const all: Row[][] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const rows: Row[] = new Array(tools.length);
      // Every other round runs the tools in reverse, so no tool always runs first (or right after the
      // same one): a drift of the machine within a round then favours each in turn.
      const order = tools.map((_, k) => round % 2 === 0 ? k : tools.length - 1 - k);
      for (const k of order) {
        const t = tools[k];
        const spinner = shareCore ? spin(pin.generator) : null;
        const { stdout, cpuSec } = await timed(t.argv).finally(() => stop(spinner));
        const messages = t.parse(stdout);
        rows[k] = {
          tool: t.tool,
          messagesPerSec: messages / durationSec,
          cpuUsPerMessage: (cpuSec * 1e6) / messages,
        };
      }
      all.push(rows);
      const base = rows[0].messagesPerSec;
      console.log(
        `round ${round + 1}${round % 2 === 0 ? "" : " (reversed)"}: ` +
          rows.map((r) =>
            `${r.tool} ${Math.round(r.messagesPerSec)} msg/s (${(r.messagesPerSec / base).toFixed(3)}x, ${
              r.cpuUsPerMessage.toFixed(2)
            } us CPU/msg)`
          ).join("; "),
      );
    }
  } finally {
    server.kill();
    await server.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (let k = 0; k < tools.length; k++) {
    const ratios = all.map((rows) => rows[k].messagesPerSec / rows[0].messagesPerSec);
    console.log(
      `${tools[k].tool}: median ${Math.round(median(all.map((r) => r[k].messagesPerSec)))} msg/s, ` +
        `ratio to ${tools[0].tool} ${median(ratios).toFixed(3)}x, ${
          median(all.map((r) => r[k].cpuUsPerMessage)).toFixed(2)
        } us CPU/msg (start-up included)`,
    );
  }
  console.log(`load average: ${loadBefore} before, ${loadAvg()} after`);
  return 0;
}
