/**
 * @module
 * `loadlab serve`: runs a target standalone until Ctrl-C, so users can also point wrk, k6 or oha at it.
 */
import { HelpRequested, UsageError } from "./usage_error.ts";
import { checkListen, parseFlags, SERVE_USAGE, serveSpecFromFlags } from "./serve_args.ts";
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";
import { notAFolder } from "../scenarios/schema/files.ts";
import { readOpenFileLimit } from "../system/open_file_limit.ts";
import { maxSocketsUnder } from "../runner/socket_budget.ts";
import {
  type CpuProfiling,
  type RunningTarget,
  startCpuProfiles,
  startTarget,
  type TargetSpec,
} from "../targets/mod.ts";
import { ENDPOINTS } from "../targets/app/app.ts";
import { serveGrpcTarget } from "../targets/app/grpc_endpoints.ts";
import { idleWarning, isCpuProfile, summarizeProfile } from "../results/cpu_profile.ts";
import { assertWritable, writeTextAtomic } from "../system/atomic_write.ts";
import { OutputError } from "../results/output_error.ts";
import { osErrorText } from "../system/os_error.ts";

/** Client connections the open-file limit leaves room for: EMFILE looks like a slow server. */
function openFilesLine(spec: TargetSpec, limit = readOpenFileLimit()): string | undefined {
  if (limit === null || !Number.isFinite(limit)) return undefined;
  const relayed = spec.kind === "proxy" || (spec.kind === "builtin" && (spec.instances ?? 1) !== 1);
  const clients = Math.floor(maxSocketsUnder(limit) / (relayed ? 2 : 1));
  return `  open files: limit ${limit} per process, room for about ${clients} client connections at once ` +
    `(raise it with ulimit -n N before loadlab serve)`;
}

function describe(target: RunningTarget, spec: TargetSpec): string {
  const lines = [`loadlab serve: listening on ${target.url}`];
  if (spec.kind === "proxy") {
    const upstream = "url" in spec.upstream ? spec.upstream.url : "the built-in target";
    const what = [
      spec.cacheTtlSec ? `Redis cache (TTL ${spec.cacheTtlSec} s)` : "",
      spec.rateLimit ? "rate limit" : "",
    ];
    lines.push(`  proxy with ${what.filter(Boolean).join(" and ") || "no cache"} in front of ${upstream}`);
  }
  if (spec.kind === "builtin" || (spec.kind === "proxy" && !("url" in spec.upstream))) {
    lines.push("  endpoints:");
    for (const [path, what] of ENDPOINTS) lines.push(`    ${path.padEnd(40)} ${what}`);
  }
  if (target.caFile) {
    const h3 = spec.kind === "proxy" || (spec.kind === "builtin" && (spec.instances ?? 1) === 1)
      ? `; HTTP/3 on UDP port ${new URL(target.url).port}`
      : "";
    lines.push(`  TLS: self-signed, verify with --cacert ${target.caFile}${h3}`);
  }
  lines.push(`  processes: ${target.processes.map((p) => `${p.name} (pid ${p.pid})`).join(", ")}`);
  lines.push(
    target.redisUrl ? `  redis: ${target.redisUrl}` : "  redis: none (/redis/:key answers 503; use --redis)",
  );
  const files = openFilesLine(spec);
  if (files) lines.push(files);
  lines.push("  press Ctrl-C to stop");
  return lines.join("\n");
}

/** Runs `loadlab serve` with `argv` (the arguments after `serve`); resolves to the exit code. */
export function runServeCommand(argv: string[]): Promise<number> {
  return runCommand("serve", async () => {
    const flags = parseFlags(argv);
    if (flags.has("help")) throw new HelpRequested(SERVE_USAGE);
    const spec = serveSpecFromFlags(flags);
    checkListen(flags, "host" in spec ? spec.host : undefined);
    const profileDir = flags.has("profile") ? flags.path("profile") || "." : undefined;
    if (profileDir !== undefined) {
      const why = notAFolder(profileDir);
      if (why) {
        throw new UsageError(`--profile=${profileDir}: ${why}; give a folder for the .cpuprofile files`);
      }
      // Checked now: the profiles are written only at Ctrl-C, and a folder that takes no file would lose
      // them.
      await assertWritable(profileDir).catch((err) => {
        throw new OutputError(`--profile=${profileDir}: cannot write: ${osErrorText(err)}`, { cause: err });
      });
    }
    const grpcPort = flags.has("grpc-port") ? flags.wholeNumber("grpc-port", 0, 65535) : undefined;
    // A target that cannot start throws TargetError: exit 3, as in run (README: exit codes).
    const target = await startTarget(spec);
    const grpc = grpcPort === undefined
      ? null
      : await serveGrpcTarget({ hostname: flags.nonEmpty("host") ?? "127.0.0.1", port: grpcPort });
    if (grpc !== null) {
      console.log(
        `loadlab serve: gRPC on grpc://${flags.nonEmpty("host") ?? "127.0.0.1"}:${grpc.port} ` +
          "(loadlab.target.Target: Echo, Sleep, Cpu, Stream; targets/app/target.proto)",
      );
    }
    await serveUntilStopped(spec, target, profileDir).finally(() => grpc?.close());
    return EXIT.ok;
  });
}

/** Prints where `target` listens and keeps it up until Ctrl-C or SIGTERM (profiling it into `profileDir`). */
async function serveUntilStopped(
  spec: TargetSpec,
  target: RunningTarget,
  profileDir?: string,
): Promise<void> {
  let profiling: CpuProfiling | null = null;
  try {
    if (profileDir !== undefined) profiling = await startCpuProfiles(target.inspected ?? []);
  } catch (err) {
    await target.stop();
    throw err;
  }
  console.log(describe(target, spec));
  if (profiling) console.log(`  CPU profile: from now until Ctrl-C, written to ${profileDir}/`);
  await new Promise<void>((resolve) => {
    const onSignal = () => {
      Deno.removeSignalListener("SIGINT", onSignal);
      Deno.removeSignalListener("SIGTERM", onSignal);
      resolve();
    };
    Deno.addSignalListener("SIGINT", onSignal);
    Deno.addSignalListener("SIGTERM", onSignal);
  });
  console.log("loadlab serve: stopping");
  if (profiling) await saveProfiles(profiling, profileDir!).finally(() => target.stop());
  await target.stop();
}

/** Stops the profiler and writes each process's profile, with its top functions on the terminal. */
async function saveProfiles(profiling: CpuProfiling, dir: string): Promise<void> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  for (const taken of await profiling.stop()) {
    if ("error" in taken || !isCpuProfile(taken.profile)) {
      console.log(`  no CPU profile of ${taken.name}: ${"error" in taken ? taken.error : "not a profile"}`);
      continue;
    }
    const file = `${dir}/serve-${taken.name.replace(/[^\w.-]/g, "_")}-${stamp}.cpuprofile`;
    await writeTextAtomic(file, JSON.stringify(taken.profile));
    const s = summarizeProfile(taken.profile);
    const top = [...s.top].sort((a, b) => b.selfUs - a.selfUs).slice(0, 5)
      .map((t) => `${s.frames[t.frame].name} ${(t.selfUs / 1000).toFixed(1)} ms`);
    console.log(`  CPU profile of ${taken.name}: ${file} (top self time: ${top.join(", ")})`);
    const warning = idleWarning(s, taken.runtime, taken.children);
    if (warning !== null) console.log(`  ${warning}`);
  }
}

if (import.meta.main) Deno.exit(await runServeCommand(Deno.args));
