/**
 * @module
 * Starts a framework app from `examples/` (`kind: "example"`): a free port, Redis seeded with the keys
 * `/redis/:key` reads, readiness probed on `/json`, and the runtime recorded.
 */
import { exampleCommand } from "./example.ts";
import { inspectFlag } from "./inspector.ts";
import { freePort, waitForPort } from "../system/ports.ts";
import { ManagedProcess, pollReady } from "./process.ts";
import { connectRedis, seedRedis } from "./redis.ts";
import { withPreload } from "./runtime_preload.ts";
import { argsWithInspect, type ExampleSpec } from "./spec.ts";
import { logFile, noStats, type Stack, type Started, type StartOptions, startRedis } from "./start_stack.ts";

/** Deno's first run of an app may download its npm packages: allow for that. */
const READY_TIMEOUT_MS = 120_000;

/** Starts `spec.app` on a free port and waits until `/json` answers 2xx. */
export async function startExample(stack: Stack, spec: ExampleSpec, opts: StartOptions): Promise<Started> {
  const run = exampleCommand(spec);
  const redis = await startRedis(stack, spec.redisUrl, spec.redis ?? false, opts);
  if (redis) {
    const client = await connectRedis(redis.url);
    await seedRedis(client).finally(() => client.disconnect().catch(() => {}));
  }
  const host = spec.host ?? "127.0.0.1";
  const port = spec.port || freePort(host);
  const env: Record<string, string> = { PORT: String(port), HOST: host, NODE_ENV: "production" };
  if (redis) env.REDIS_URL = redis.url;
  const inspectPort = spec.profile ? freePort("127.0.0.1") : undefined;
  // The example commands are always `node app.js` or `deno run ...`, which take the flag.
  const args = inspectPort === undefined
    ? run.args
    : argsWithInspect(run.command, run.args, inspectFlag(inspectPort)) ?? run.args;
  const preloaded = opts.runtime ? withPreload(opts.runtime, run.command, args, env) : { args, env };
  stack.markSpawn();
  const proc = ManagedProcess.spawn({
    name: `${spec.app} app`,
    command: run.command,
    args: preloaded.args,
    cwd: run.cwd,
    env: preloaded.env,
    logFile: logFile(opts, spec.app),
    cpuAffinity: spec.cpuAffinity,
  });
  stack.push(() => proc.stop());
  stack.processes.push({ name: "target", pid: proc.pid });
  if (inspectPort !== undefined) stack.inspected.push({ name: "target", port: inspectPort, pid: proc.pid });
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  await pollReady(proc, async () => {
    if (stack.listeningAtMs === null && await waitForPort(host, port, 1)) stack.markListening();
    const res = await fetch(url + "/json", { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    if (stack.listeningAtMs === null) stack.markListening(); // it answered: it listened by now at the latest
    return res.ok;
  }, READY_TIMEOUT_MS);
  const command = [run.command, ...run.args].join(" ");
  return { url, redis, info: { kind: "example", runtime: run.runtime, command }, stats: noStats };
}
