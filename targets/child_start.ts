/**
 * @module
 * loadlab's own target processes (instances, balancer, proxy): the command that starts one, spawning it
 * until READY, its certificate files, and their summed counters.
 */
import { type ChildSpec, READY_PREFIX } from "./child_spec.ts";
import { TargetError } from "./errors.ts";
import { inspectFlag } from "./inspector.ts";
import { ManagedProcess } from "./process.ts";
import { RUNTIME_DIR_ENV } from "./runtime_sampler.ts";
import { type ServeTls, STATS_PATH } from "./spec.ts";
import { logFile, type Stack, type StartOptions } from "./start_stack.ts";
import { type ServeTlsFiles, serveTlsFiles } from "./tls_cert.ts";
import { freePort } from "../system/ports.ts";

const CHILD_READY_TIMEOUT_MS = 30_000;

/** How to run `child_main.ts`: the binary's hidden subcommand, or `deno run` (inspector if asked). */
function childCommand(spec: ChildSpec, inspectPort?: number): { command: string; args: string[] } {
  const json = JSON.stringify(spec);
  if (Deno.build.standalone) {
    if (inspectPort !== undefined) {
      throw new TargetError(
        "profile: cpu cannot profile the built-in target of a compiled loadlab binary",
        "run loadlab from source (deno task loadlab ...) to profile it",
      );
    }
    return { command: Deno.execPath(), args: ["__target", json] };
  }
  const entry = new URL("./child_main.ts", import.meta.url);
  const config = new URL("../deno.json", import.meta.url);
  // --unstable-net: `reusePort` is still an unstable Deno API.
  const args = ["run", "-A", "--quiet", "--unstable-net"];
  if (inspectPort !== undefined) args.push(inspectFlag(inspectPort));
  try {
    if (config.protocol === "file:" && Deno.statSync(config).isFile) args.push("--config", config.pathname);
  } catch { /* no deno.json next to the sources: rely on the import map the entry resolves */ }
  return { command: Deno.execPath(), args: [...args, entry.href, json] };
}

/** Spawns one child and waits for its READY line; returns its URL. */
export async function spawnChild(
  stack: Stack,
  name: string,
  spec: ChildSpec,
  opts: StartOptions,
  cpuAffinity?: number[],
  profile?: "cpu",
): Promise<string> {
  const inspectPort = profile ? freePort("127.0.0.1") : undefined;
  const { command, args } = childCommand(spec, inspectPort);
  stack.markSpawn();
  const proc = ManagedProcess.spawn({
    name,
    command,
    args,
    // Our own processes start the runtime sampler themselves (child_main.ts).
    env: opts.runtime ? { [RUNTIME_DIR_ENV]: opts.runtime.dir } : undefined,
    stdinPiped: true,
    logFile: logFile(opts, name),
    cpuAffinity,
  });
  stack.push(() => proc.stop());
  stack.processes.push({ name, pid: proc.pid });
  if (inspectPort !== undefined) stack.inspected.push({ name, port: inspectPort, pid: proc.pid });
  const line = await proc.waitForStdoutLine(READY_PREFIX, CHILD_READY_TIMEOUT_MS);
  stack.markListening(); // the READY line comes once the server listens
  return JSON.parse(line).url;
}

/** Sums the numeric counters `urls` answer (not `pid`); `client` trusts a self-signed target's CA. */
export async function sumStats(urls: string[], client?: Deno.HttpClient): Promise<Record<string, number>> {
  const sum: Record<string, number> = {};
  const answers = await Promise.all(urls.map(async (url) => {
    try {
      const res = await fetch(url + STATS_PATH, { signal: AbortSignal.timeout(2000), client });
      return res.ok ? await res.json() : (await res.body?.cancel(), {});
    } catch {
      return {};
    }
  }));
  for (const answer of answers) {
    for (const [key, value] of Object.entries(answer)) {
      if (key !== "pid" && typeof value === "number") sum[key] = (sum[key] ?? 0) + value;
    }
  }
  return sum;
}

/** A TLS target's files: given, or made self-signed into its log folder (a temp folder without one). */
export async function tlsFilesOf(
  stack: Stack,
  tls: ServeTls | undefined,
  opts: StartOptions,
  prefix?: string,
): Promise<ServeTlsFiles | undefined> {
  if (!tls) return undefined;
  let dir = opts.logDir;
  if (dir === undefined) {
    const temp = dir = await Deno.makeTempDir({ prefix: "loadlab-tls-" });
    stack.push(() => Deno.remove(temp, { recursive: true }).catch(() => {}));
  }
  return await serveTlsFiles(tls, dir, prefix);
}

/**
 * An HTTP/1.1 client trusting a self-signed target's CA, closed with the target: the balancer answers its
 * stats path on HTTP/1.1 only. Undefined otherwise.
 */
export function statsClient(stack: Stack, tls: ServeTlsFiles | undefined): Deno.HttpClient | undefined {
  if (!tls?.caFile) return undefined;
  const client = Deno.createHttpClient({ caCerts: [Deno.readTextFileSync(tls.caFile)], http2: false });
  stack.push(() => Promise.resolve(client.close()));
  return client;
}
