/**
 * @module
 * `deno task bench`: loadlab's load engine against wrk (and autocannon, oha, hey, k6 when installed),
 * side by side in one run on one target. The target (nginx, one worker, `return 200`, see nginx.conf)
 * is pinned to CPU 0 and every generator to CPU 1 with `taskset`, so each tool gets one core and the
 * target never competes with it. Each tool runs 50 connections for the same duration after one short
 * warm-up run; the table shows req/s, the ratio to wrk and the CPU time per request (the tool's user +
 * system time, start-up included, from this process's reaped-children times in /proc/self/stat: on a
 * shared machine the steadier figure), and, against the bench's own nginx, the target's CPU per request
 * and how busy its core was meanwhile (its master and workers, from /proc): near 100% the target, not
 * the tool, set the rate, and a tool whose requests cost the target more shows it there.
 * `bench/last_run.json` keeps the numbers. loadlab runs once
 * per transport (`loadlab (epoll)`, `loadlab (deno)`); `--tools loadlab` names both.
 *
 * `--https` serves nginx over TLS 1.3 with a throwaway certificate (session tickets and cache off, so
 * every new connection is a full handshake for every tool); `--close` sends `Connection: close`, one
 * connection (and handshake) per request. Those rows run wrk, loadlab (epoll: OpenSSL by FFI; deno:
 * Deno.startTls; both verify nginx with its CA, and `loadlab-epoll-k` skips verification as wrk does) and
 * oha only.
 *
 *   deno task bench [--duration 10s] [--connections 50] [--warmup 2s] [--target URL] [--tools wrk,loadlab]
 *                   [--https] [--close] [--rounds 1]
 *
 * `--rounds N` runs every tool N times in turn (one warm-up first) and ends with the medians and each
 * round's ratio to that round's wrk: on a shared machine one round's ratio moves by 10% either way.
 *   deno task bench --sessions [--duration 3s] [--rounds 5] [--connections 50]   (bench/sessions.ts)
 *                              [--protocol h2c --streams 10]
 *
 *   deno task bench --scripts [--duration 3s] [--rounds 3] [--connections 50,1000]  (bench/scripts.ts)
 *   deno task bench --k6: the same, named for its k6 rows (k6's script under k6 and converted on loadlab)
 *
 * `--crowd`: 50 to 19,950 connections, HTTP/1.1, WebSocket hold and echo and a one-GET script, loadlab vs
 * wrk and gcannon: req/s, CPU per request, RSS and RSS per added connection (bench/crowd.ts).
 *
 * `--ws`: WebSocket closed echo instead, loadlab vs gcannon `--ws` on a C echo server (bench/ws.ts).
 * `--h2`: the HTTP/2 rows instead, loadlab vs h2load over h2 on nginx and the built-in target (bench/h2.ts).
 * `--h3`: HTTP/3, loadlab vs oha over h3 and loadlab's own h2, on the built-in target (bench/h3.ts).
 * `--grpc`: unary gRPC calls instead, loadlab vs ghz on a grpc-go greeter (bench/grpc.ts).
 * `--k6-verdicts`: k6 scripts under k6 and loadlab, same command line: same verdict? (bench/k6_verdicts.ts).
 * `--artillery-verdicts`: Artillery scripts, Artillery and loadlab: same verdict? (artillery_verdicts.ts).
 * `--ghz-verdicts`: ghz command lines under ghz and `loadlab ghz`: same verdict? (bench/ghz_verdicts.ts).
 * `--locust`: locustfiles under Locust and loadlab, same flags: same counts, failures, exit code? and
 * `--locust-speed`: one GET at 50 users, Locust's users vs loadlab (bench/locust_parity.ts).
 * `--startup`: from the command to the first request, and from the last response to the exit, loadlab's
 * commands beside k6 and oha (bench/startup.ts).
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { UsageError } from "../cli/usage_error.ts";
import { BenchSetupError, startNginx } from "./nginx.ts";
import { BENCH_TOOLS, type BenchTool, type BenchVariant } from "./tools.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";
import { findProgram, isExecutable } from "../system/path_lookup.ts";
import { type BenchTargetProbe, perRequest, pinning, runTool } from "./tool_run.ts";
import { machine, printSummary, printTable, summarizeRounds, type ToolResult } from "./engine_table.ts";

interface BenchOptions {
  durationSec: number;
  warmupSec: number;
  connections: number;
  target?: string;
  tools: BenchTool[];
  https: boolean;
  close: boolean;
  /** Rounds of every tool in turn; the summary gives medians and each round's ratio. */
  rounds: number;
}

const FLAGS = [
  { long: "duration", short: "d", takesValue: true, example: "10s" },
  { long: "warmup", takesValue: true, example: "2s" },
  { long: "connections", short: "c", takesValue: true, example: "50" },
  { long: "target", takesValue: true, example: "http://127.0.0.1:8080/" },
  { long: "tools", takesValue: true, example: "wrk,loadlab" },
  { long: "https", takesValue: false },
  { long: "close", takesValue: false },
  { long: "rounds", takesValue: true, example: "3" },
  { long: "help", short: "h", takesValue: false },
];

function parseBenchArgs(argv: string[]): BenchOptions {
  const raw = tokenize(argv, FLAGS);
  if (raw.values.has("help") || raw.positionals.length > 0) {
    throw new UsageError(
      "usage: deno task bench [--duration 10s] [--connections 50] [--warmup 2s] " +
        "[--target URL] [--tools " + BENCH_TOOLS.map((t) => t.name).join(",") + "] [--https] [--close] " +
        "[--rounds 1]",
    );
  }
  const flags = new FlagValues(raw, FLAGS);
  const names = (flags.text("tools")?.split(",").map((s) => s.trim()) ?? BENCH_TOOLS.map((t) => t.name))
    .flatMap((n) => n === "loadlab" ? ["loadlab-epoll", "loadlab-deno"] : [n]);
  const unknown = names.filter((n) => !BENCH_TOOLS.some((t) => t.name === n));
  if (unknown.length) {
    throw new UsageError(
      `--tools: unknown ${unknown.join(", ")}; pick from ${BENCH_TOOLS.map((t) => t.name).join(",")}`,
    );
  }
  const target = flags.text("target");
  if (target !== undefined && !/^https?:\/\/[^/]/.test(target)) {
    throw new UsageError(
      `--target ${JSON.stringify(target)}: not an http(s) URL, e.g. --target http://127.0.0.1:8080/`,
    );
  }
  return {
    // Tools take whole seconds (autocannon -d), so everyone gets the same rounded duration.
    durationSec: Math.max(1, Math.round((flags.positiveDurationMs("duration") ?? 10_000) / 1_000)),
    warmupSec: Math.round((flags.durationMs("warmup") ?? 2_000) / 1_000),
    connections: flags.positiveInt("connections") ?? 50,
    target,
    tools: BENCH_TOOLS.filter((t) => names.includes(t.name)),
    https: flags.has("https"),
    close: flags.has("close"),
    rounds: flags.positiveInt("rounds") ?? 1,
  };
}

async function measure(
  opts: BenchOptions,
  url: string,
  pin: string[],
  variant: BenchVariant,
  target: BenchTargetProbe,
  round: number,
): Promise<ToolResult[]> {
  const results: ToolResult[] = [];
  const timeoutMs = (opts.durationSec + 60) * 1_000;
  for (const tool of opts.tools) {
    const run = await tool.plan(url, opts.connections, opts.durationSec, variant);
    if (typeof run === "string") {
      console.log(`  ${tool.name}: skipped (${run})`);
      results.push({ round, tool: tool.label ?? tool.name, rps: null, ratioToWrk: null, skipped: run });
      continue;
    }
    const command = [...pin, ...run.argv].join(" ");
    const name = tool.label ?? tool.name;
    console.log(`  ${name}: ${command}`);
    try {
      const { rps, cpuSec, targetCpuSec, targetSteadyRps } = await runTool(
        run,
        pin,
        timeoutMs,
        target,
        opts.durationSec,
      );
      results.push({
        round,
        tool: name,
        rps,
        ratioToWrk: null,
        targetSteadyRps,
        steadyRatioToWrk: null,
        cpuSec,
        ...perRequest(rps, opts.durationSec, cpuSec, targetCpuSec),
        command,
      });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      console.log(`  ${name}: FAILED ${error}`);
      results.push({ round, tool: name, rps: null, ratioToWrk: null, command, error });
    }
  }
  const wrk = results.find((r) => r.tool === "wrk");
  for (const r of results) {
    r.ratioToWrk = r.rps !== null && wrk?.rps ? r.rps / wrk.rps : null;
    const steady = r.targetSteadyRps;
    r.steadyRatioToWrk = steady != null && wrk?.targetSteadyRps ? steady / wrk.targetSteadyRps : null;
  }
  return results;
}

/** One throwaway run so the target, the kernel's socket paths and the page cache are warm for all. */
async function warmUp(opts: BenchOptions, url: string, pin: string[], variant: BenchVariant): Promise<void> {
  if (opts.warmupSec <= 0) return;
  for (const tool of [BENCH_TOOLS.find((t) => t.name === "wrk")!, ...opts.tools]) {
    const run = await tool.plan(url, opts.connections, opts.warmupSec, variant);
    if (typeof run === "string") continue;
    console.log(`warm-up: ${tool.name} for ${opts.warmupSec}s`);
    await runTool(run, pin, (opts.warmupSec + 60) * 1_000).catch((err) =>
      console.log(`  warm-up failed: ${err.message}`)
    );
    return;
  }
}

/**
 * nginx's TLS for `--https`: a throwaway CA and certificate in a temp folder, TLS 1.3 only, session
 * tickets and cache off so no tool resumes a session (wrk and loadlab would not, oha might).
 */
async function benchTls(): Promise<{ directives: string; caFile: string; cleanup: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-tls-" });
  const pair = await selfSignedPair();
  await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
  await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem + pair.caPem);
  await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem, { mode: 0o600 });
  return {
    directives: `ssl_certificate ${dir}/cert.pem; ssl_certificate_key ${dir}/key.pem; ` +
      "ssl_protocols TLSv1.3; ssl_session_tickets off; ssl_session_cache off;",
    caFile: `${dir}/ca.pem`,
    cleanup: () => Deno.remove(dir, { recursive: true }).catch(() => {}),
  };
}

async function main(argv: string[]): Promise<number> {
  const opts = parseBenchArgs(argv);
  const pin = await pinning();
  const pinNote = opts.target && pin.target.length
    ? "generators pinned to CPU 1 (--target is not pinned)"
    : pin.note;
  console.log(
    `loadlab engine bench: ${opts.connections} connections, ${opts.durationSec}s per tool; ${pinNote}`,
  );
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  const variant: BenchVariant = { close: opts.close };
  const cleanups: Array<() => Promise<void>> = [];
  const stopNginx = async () => {
    await nginx?.stop();
    for (const cleanup of cleanups) await cleanup();
  };
  const onSignal = () => void Promise.resolve(stopNginx()).finally(() => Deno.exit(130));
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    let url = opts.target;
    if (!url) {
      // Debian installs nginx in /usr/sbin, which is not on every user's PATH.
      const nginxPath = findProgram("nginx") ??
        (isExecutable("/usr/sbin/nginx") ? "/usr/sbin/nginx" : undefined);
      if (!nginxPath) {
        throw new BenchSetupError(
          "nginx not found; apt-get install nginx, or bench a running server with --target URL",
        );
      }
      const tls = opts.https ? await benchTls() : undefined;
      if (tls) cleanups.push(tls.cleanup);
      variant.caFile = tls?.caFile;
      nginx = await startNginx(nginxPath, pin.target, tls);
      url = nginx.url;
    }
    console.log(
      `target: ${opts.target ? url : `nginx (1 worker) at ${url}`}${opts.close ? ", Connection: close" : ""}`,
    );
    await warmUp(opts, url, pin.generator, variant);
    const rounds: ToolResult[][] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      if (opts.rounds > 1) console.log(`\nround ${round} of ${opts.rounds}`);
      const target = { pid: nginx?.pid ?? null, requestsServed: nginx?.requestsServed };
      rounds.push(await measure(opts, url, pin.generator, variant, target, round));
      printTable(rounds.at(-1)!);
    }
    const summary = summarizeRounds(rounds);
    if (opts.rounds > 1) {
      console.log(
        `\nover ${opts.rounds} rounds (medians; "by round": each round's ratio to that round's wrk)`,
      );
      printSummary(summary);
    }
    const results = rounds.flat();
    const outPath = new URL(
      opts.https || opts.close ? "./last_run_tls.json" : "./last_run.json",
      import.meta.url,
    );
    const record = {
      createdAt: new Date().toISOString(),
      machine: machine(),
      target: opts.target ??
        `nginx, 1 worker, return 200${opts.https ? ", TLS 1.3 (no session resumption)" : ""}`,
      connectionClose: opts.close,
      pinned: pin.target.length > 0 || pin.generator.length > 0,
      pinning: pinNote,
      connections: opts.connections,
      durationSec: opts.durationSec,
      rounds: opts.rounds,
      summary,
      results,
    };
    await Deno.writeTextFile(outPath, JSON.stringify(record, null, 2) + "\n");
    console.log(`\nwrote ${outPath.pathname}`);
    return results.some((r) => r.error) ? 1 : 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    await stopNginx();
  }
}

/** `--sessions`: templated vs fixed requests and a login flow (bench/sessions.ts), its own flags. */
async function sessionsMain(argv: string[]): Promise<number> {
  const flags = [
    { long: "sessions", takesValue: false },
    { long: "duration", short: "d", takesValue: true, example: "3s" },
    { long: "rounds", takesValue: true, example: "5" },
    { long: "connections", short: "c", takesValue: true, example: "50" },
    { long: "protocol", takesValue: true, example: "h2c" },
    { long: "streams", takesValue: true, example: "10" },
  ];
  const values = new FlagValues(tokenize(argv, flags), flags);
  const protocol = values.text("protocol") ?? "http1";
  if (protocol !== "http1" && protocol !== "h2c") {
    throw new UsageError(`--protocol: http1 or h2c (found ${protocol}); e.g. --protocol h2c --streams 10`);
  }
  const { runSessionBench } = await import("./sessions.ts");
  return await runSessionBench({
    durationSec: Math.max(1, Math.round((values.positiveDurationMs("duration") ?? 3_000) / 1_000)),
    rounds: values.positiveInt("rounds") ?? 5,
    connections: values.positiveInt("connections") ?? 50,
    protocol,
    streams: values.positiveInt("streams") ?? 10,
  });
}

/** `--scripts`: a session script vs the fixed request and k6, and a login session (bench/scripts.ts). */
async function scriptsMain(argv: string[]): Promise<number> {
  const flags = [
    { long: "scripts", takesValue: false },
    { long: "k6", takesValue: false },
    { long: "duration", short: "d", takesValue: true, example: "3s" },
    { long: "rounds", takesValue: true, example: "3" },
    { long: "connections", short: "c", takesValue: true, example: "50,1000,10000" },
  ];
  const values = new FlagValues(tokenize(argv, flags), flags);
  const { runScriptBench } = await import("./scripts.ts");
  const { openFileLimit, parseCrowds } = await import("./crowd.ts");
  let code = 0;
  // Each count in turn (`--connections 50,1000,10000`): the goal holds at every one.
  for (const connections of parseCrowds(values.text("connections") ?? "50", openFileLimit())) {
    code = Math.max(
      code,
      await runScriptBench({
        durationSec: Math.max(1, Math.round((values.positiveDurationMs("duration") ?? 3_000) / 1_000)),
        rounds: values.positiveInt("rounds") ?? 3,
        connections,
      }),
    );
  }
  return code;
}

if (import.meta.main) {
  const chosen = Deno.args.includes("--h2")
    ? import("./h2.ts").then((h2) => h2.main(Deno.args))
    : Deno.args.includes("--h3")
    ? import("./h3.ts").then((h3) => h3.main(Deno.args))
    : Deno.args.includes("--crowd")
    ? import("./crowd.ts").then((crowd) => crowd.main(Deno.args))
    : Deno.args.includes("--ws")
    ? import("./ws.ts").then((ws) => ws.main(Deno.args))
    : Deno.args.includes("--grpc")
    ? import("./grpc.ts").then((grpc) => grpc.main(Deno.args))
    : Deno.args.includes("--ghz-verdicts")
    ? import("./ghz_verdicts.ts").then((verdicts) => verdicts.main(Deno.args))
    : Deno.args.includes("--artillery-verdicts")
    ? import("./artillery_verdicts.ts").then((verdicts) => verdicts.main(Deno.args))
    : Deno.args.includes("--k6-verdicts")
    ? import("./k6_verdicts.ts").then((verdicts) => verdicts.main(Deno.args))
    : Deno.args.includes("--locust") || Deno.args.includes("--locust-speed")
    ? import("./locust_parity.ts").then((parity) => parity.main(Deno.args))
    : Deno.args.includes("--startup")
    ? import("./startup.ts").then((startup) => startup.main(Deno.args))
    : Deno.args.includes("--sessions")
    ? sessionsMain(Deno.args)
    : Deno.args.includes("--scripts") || Deno.args.includes("--k6")
    ? scriptsMain(Deno.args)
    : main(Deno.args);
  chosen.then(
    (code) => Deno.exit(code),
    (err) => {
      console.error(
        err instanceof UsageError ? err.message : `bench failed: ${err instanceof Error ? err.message : err}`,
      );
      Deno.exit(err instanceof UsageError ? 2 : 1);
    },
  );
}
