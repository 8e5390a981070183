/**
 * @module
 * `deno task bench --h3`: loadlab's HTTP/3 client beside oha's (`--http-version 3`, built with `cargo
 * install oha --locked --features http3 --root /tmp/peers/oha`), beside quiche's C library driven through
 * FFI from one loop (`quiche-ffi`: bench/h3_quiche_client.ts, a measuring client, not loadlab's) and beside
 * loadlab's own HTTP/2, with the same connections, against one server pinned to CPU 0, each tool pinned to
 * CPU 1. The server is bench/h3_rust_server (the default: quinn and h3 for h3, hyper and rustls for h2, on
 * one thread, a fixed 200 with 13 octets; built by bench/build_h3_rust_server.sh, else the bench says so and
 * takes the next), the built-in target with `tls: self-signed` (`--server builtin`: Hono on Deno.serve for
 * h2, on Deno's QUIC for h3, `GET /`) or bench/h3_deno_server.ts (`--server deno`: Deno's QUIC and http3/, a
 * fixed 200, h3 only). The tools take turns in interleaved rounds, so a busy machine's load falls on all
 * alike; every row has req/s, the tool's CPU per request (reaped-children times, start-up included), the
 * server's CPU per request and its core's share, and the load average around it. A tool that is missing
 * (oha, quiche's library) or cannot run there (h2 on the h3-only server) is skipped with the reason printed.
 * `bench/last_run_h3.json` keeps every round.
 *
 *   deno task bench --h3 [--server rust|builtin|deno] [--duration 10s] [--connections 10] [--streams 1]
 *                        [--rounds 3] [--tools oha,loadlab-h3,loadlab-h2,quiche-ffi]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { UsageError } from "../cli/usage_error.ts";
import { median } from "../results/stats.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";
import { loadAvg, parseLoadlabRps } from "./h2.ts";
import { startTargets } from "./h2_targets.ts";
import { perRequest, pinning, runTool } from "./tool_run.ts";
import { BENCH_TOOLS, type ToolRun } from "./tools.ts";

const FLAGS = [
  { long: "h3", takesValue: false },
  { long: "server", takesValue: true, example: "rust" },
  { long: "duration", short: "d", takesValue: true, example: "10s" },
  { long: "connections", short: "c", takesValue: true, example: "10" },
  { long: "streams", short: "m", takesValue: true, example: "1" },
  { long: "rounds", takesValue: true, example: "3" },
  { long: "tools", takesValue: true, example: "oha,loadlab-h3" },
  { long: "help", short: "h", takesValue: false },
];
const TOOLS = ["oha", "loadlab-h3", "loadlab-h2", "quiche-ffi"] as const;
type Tool = typeof TOOLS[number];
const USAGE =
  "usage: deno task bench --h3 [--server rust|builtin|deno] [--duration 10s] [--connections 10] " +
  `[--streams 1] [--rounds 3] [--tools ${TOOLS.join(",")}]`;

interface Server {
  label: string;
  url: string;
  caFile: string;
  pid: number | null;
  speaksH2: boolean;
  stop(): Promise<void>;
}

/** Where bench/build_h3_rust_server.sh puts the Rust server (`H3_RUST_SERVER` overrides). */
const RUST_SERVER = Deno.env.get("H3_RUST_SERVER") ?? "/tmp/peers/h3rs/h3_rust_server";
const RUST_LABEL = "bench/h3_rust_server: quinn + h3 (h3), hyper + rustls (h2), one thread, a fixed 200 " +
  "with 13 octets";

/** bench/h3_quiche_client.ts's quiche (bench/build_quiche.sh; `QUICHE_LIB` overrides). */
const QUICHE_LIB = Deno.env.get("QUICHE_LIB") ?? "/tmp/peers/quiche/libquiche.so";

/** The Rust server, or why it cannot run (the bench then uses the built-in target). */
async function rustServerMissing(): Promise<string | null> {
  const info = await Deno.stat(RUST_SERVER).catch(() => null);
  return info?.isFile ? null : `${RUST_SERVER} is missing: build it with bench/build_h3_rust_server.sh`;
}

/** bench/h3_deno_server.ts or the Rust server on CPU 0 with a throwaway certificate in `dir`. */
async function startH3Server(kind: "deno" | "rust", dir: string, pinTarget: string[]): Promise<Server> {
  const pair = await selfSignedPair();
  await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
  await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem + pair.caPem);
  await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem, { mode: 0o600 });
  const script = new URL("./h3_deno_server.ts", import.meta.url).pathname;
  const argv = [...pinTarget]
    .concat(kind === "rust" ? [RUST_SERVER] : [Deno.execPath(), "run", "-A", "--unstable-net", script])
    .concat(["--cert", `${dir}/cert.pem`, "--key", `${dir}/key.pem`]);
  const child = new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "inherit" })
    .spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening (\d+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the ${kind} server exited before listening: ${text}`);
    text += value;
  }
  reader.releaseLock();
  return {
    label: kind === "rust" ? RUST_LABEL : "bench/h3_deno_server.ts: Deno's QUIC, a fixed 200 with 13 octets",
    url: `https://127.0.0.1:${/listening (\d+)/.exec(text)![1]}/`,
    caFile: `${dir}/ca.pem`,
    pid: child.pid,
    speaksH2: kind === "rust",
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** The command for `tool`, or why it cannot run here. */
async function plan(tool: Tool, server: Server, o: Options): Promise<ToolRun | string> {
  if (tool === "oha") {
    const oha = BENCH_TOOLS.find((t) => t.name === "oha")!;
    const run = await oha.plan(server.url, o.connections, o.durationSec, { caFile: server.caFile });
    if (typeof run === "string") {
      return `${run.split(";")[0]}: cargo install oha --locked --features http3 --root /tmp/peers/oha`;
    }
    run.argv.splice(-1, 0, "--http-version", "3", ...(o.streams > 1 ? ["-p", `${o.streams}`] : []));
    return run;
  }
  if (tool === "quiche-ffi") {
    const lib = await Deno.stat(QUICHE_LIB).catch(() => null);
    if (!lib?.isFile) return `${QUICHE_LIB} is missing: build it with bench/build_quiche.sh`;
    const script = new URL("./h3_quiche_client.ts", import.meta.url).pathname;
    return {
      argv: [Deno.execPath(), "run", "-A", script, "--url", server.url, "--cacert", server.caFile]
        .concat([
          "--connections",
          `${o.connections}`,
          "--streams",
          `${o.streams}`,
          "--duration",
          `${o.durationSec}`,
        ])
        .concat(["--lib", QUICHE_LIB]),
      parseRps: (stdout) => Promise.resolve(JSON.parse(stdout.trim().split("\n").at(-1)!).requestsPerSec),
    };
  }
  if (tool === "loadlab-h2" && !server.speaksH2) return "the server speaks h3 only (use --server builtin)";
  const protocol = tool === "loadlab-h3" ? "h3" : "h2";
  const mainTs = new URL("../main.ts", import.meta.url).pathname;
  return {
    argv: [Deno.execPath(), "run", "-A", mainTs, "attack", server.url, `--${protocol}`]
      .concat(["--streams", `${o.streams}`, "-c", `${o.connections}`, "-d", `${o.durationSec}s`])
      .concat(["--workers", "1", "--cacert", server.caFile, "--json", "--no-live"]),
    parseRps: (stdout) => Promise.resolve().then(() => parseLoadlabRps(stdout, protocol)),
  };
}

interface Options {
  server: "rust" | "builtin" | "deno";
  durationSec: number;
  connections: number;
  streams: number;
  rounds: number;
  tools: Tool[];
}

function parseArgs(argv: string[]): Options {
  const raw = tokenize(argv, FLAGS);
  if (raw.values.has("help") || raw.positionals.length > 0) throw new UsageError(USAGE);
  const flags = new FlagValues(raw, FLAGS);
  const names = flags.text("tools")?.split(",").map((s) => s.trim()) ?? [...TOOLS];
  const unknown = names.filter((n) => !(TOOLS as readonly string[]).includes(n));
  if (unknown.length) throw new UsageError(`--tools: unknown ${unknown.join(", ")}; pick from ${TOOLS}`);
  return {
    server: flags.choice("server", ["rust", "builtin", "deno"] as const) ?? "rust",
    durationSec: Math.max(1, Math.round((flags.positiveDurationMs("duration") ?? 10_000) / 1_000)),
    connections: flags.positiveInt("connections") ?? 10,
    streams: flags.positiveInt("streams") ?? 1,
    rounds: flags.positiveInt("rounds") ?? 3,
    tools: TOOLS.filter((t) => names.includes(t)),
  };
}

interface Row {
  round: number;
  tool: Tool;
  rps: number;
  cpuUsPerRequest: number | null;
  serverCpuUsPerRequest: number | null;
  serverBusyPct: number | null;
  loadAvg: string;
}

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  const pin = await pinning();
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-h3-" });
  const missing = o.server === "rust" ? await rustServerMissing() : null;
  if (missing !== null) console.log(`server rust: skipped: ${missing}; the built-in target instead`);
  const server: Server = o.server !== "builtin" && missing === null
    ? await startH3Server(o.server, dir, pin.target)
    : await startTargets(["builtin"], dir, pin.target).then(([t]) => ({
      ...t,
      label: "built-in target, 1 process, GET /: h2 on Deno.serve, h3 on Deno's QUIC",
      speaksH2: true,
    }));
  const rows: Row[] = [];
  let failed = false;
  try {
    console.log(
      `h3 bench: -c ${o.connections} --streams ${o.streams}, ${o.durationSec}s, ${o.rounds} interleaved ` +
        `rounds; ${pin.note}; load average ${loadAvg()}\n  server: ${server.label} at ${server.url}`,
    );
    const plans = new Map<Tool, ToolRun>();
    for (const tool of o.tools) {
      const p = await plan(tool, server, o);
      if (typeof p === "string") console.log(`  ${tool}: skipped: ${p}`);
      else plans.set(tool, p);
    }
    for (let round = 1; round <= o.rounds; round++) {
      for (const [tool, run] of plans) {
        const before = loadAvg();
        try {
          const m = await runTool(run, pin.generator, (o.durationSec + 60) * 1_000, server, o.durationSec);
          const cost = perRequest(m.rps, o.durationSec, m.cpuSec, m.targetCpuSec);
          const row = {
            round,
            tool,
            rps: m.rps,
            cpuUsPerRequest: cost.cpuUsPerRequest,
            serverCpuUsPerRequest: cost.targetCpuUsPerRequest,
            serverBusyPct: cost.targetBusyPct,
            loadAvg: `${before} -> ${loadAvg()}`,
          };
          rows.push(row);
          const us = (x: number | null) => x === null ? "?" : x.toFixed(1);
          console.log(
            `  round ${round} ${tool}: ${Math.round(m.rps)} req/s, ${us(row.cpuUsPerRequest)} us CPU/req; ` +
              `server ${us(row.serverCpuUsPerRequest)} us/req, ${Math.round(row.serverBusyPct ?? NaN)}% ` +
              `busy; load ${row.loadAvg}`,
          );
        } catch (err) {
          failed = true;
          console.log(`  round ${round} ${tool}: FAILED ${err instanceof Error ? err.message : err}`);
        }
      }
    }
    /** loadlab-h2's CPU per request over this tool's, round by round: requests per generator core. */
    const perCore = (mine: Row[], ref: Tool) =>
      mine.flatMap((r) => {
        const other = rows.find((x) => x.round === r.round && x.tool === ref);
        const ours = r.cpuUsPerRequest;
        const theirs = other?.cpuUsPerRequest;
        return ours && theirs ? [Number((theirs / ours).toFixed(2))] : [];
      });
    const summary = [...plans.keys()].map((tool) => {
      const mine = rows.filter((r) => r.tool === tool);
      /** This tool's req/s over `ref`'s, round by round. */
      const ratios = (ref: Tool) =>
        mine.flatMap((r) => {
          const other = rows.find((x) => x.round === r.round && x.tool === ref);
          return other ? [Number((r.rps / other.rps).toFixed(2))] : [];
        });
      return {
        tool,
        medianRps: Math.round(median(mine.map((r) => r.rps))),
        medianCpuUsPerRequest: Number(median(mine.flatMap((r) => r.cpuUsPerRequest ?? [])).toFixed(1)),
        medianServerBusyPct: Math.round(median(mine.flatMap((r) => r.serverBusyPct ?? []))),
        overOha: ratios("oha"),
        overLoadlabH2: ratios("loadlab-h2"),
        perCoreOverLoadlabH2: perCore(mine, "loadlab-h2"),
      };
    });
    console.table(summary);
    const out = new URL("./last_run_h3.json", import.meta.url);
    const record = { createdAt: new Date().toISOString(), pinning: pin.note, ...o, server: server.label };
    await Deno.writeTextFile(
      out,
      JSON.stringify({ ...record, loadAverageAfter: loadAvg(), summary, rounds: rows }, null, 2) + "\n",
    );
    console.log(`wrote ${out.pathname}`);
    return failed ? 1 : 0;
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
