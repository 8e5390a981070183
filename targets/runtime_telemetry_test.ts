/**
 * The runtime sampler end to end: the built-in target (Deno, which samples itself) and a Node app started
 * as an external command (the sampler arrives through NODE_OPTIONS) each report a higher event-loop delay
 * while they serve a CPU-bound endpoint than while they serve one that only waits, with no absolute
 * number asserted (both also time their cold start: spawn, then listening, then ready); the Node app also
 * reports GC pauses by kind; a failing sampler says why once and the
 * app still serves; and `runtimeTelemetry: false` (or no log folder: `loadlab serve`) leaves it alone.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { startTarget } from "./start.ts";
import { startTelemetry } from "./telemetry.ts";
import type { RunningTarget, TargetSpec } from "./spec.ts";
import type { TelemetrySeries } from "../results/mod.ts";
import { findProgram } from "../system/path_lookup.ts";
import { freePort } from "../system/ports.ts";
import { makeRuntimeDir, preloadCjs, withPreload } from "./runtime_preload.ts";
import { median } from "../results/stats.ts";

const onCi = Deno.env.get("CI") === "true";
const node = findProgram("node");
if (!node && !onCi) console.log("skipped: the Node runtime sampler tests need node on PATH");

/** `concurrency` loops GETting `path` until `count` answers or `timeMs` passed, whichever is first. */
async function drive(url: string, concurrency: number, count: number, timeMs: number): Promise<number> {
  const deadline = performance.now() + timeMs;
  let done = 0;
  await Promise.all([...Array(concurrency)].map(async () => {
    while (done < count && performance.now() < deadline) {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      await res.body?.cancel();
      done++;
    }
  }));
  return done;
}

/** The runtime series of the target's main process over one bounded load on `path`. */
async function loopDelayUnder(target: RunningTarget, path: string): Promise<TelemetrySeries> {
  const telemetry = startTelemetry(target, { intervalMs: 250 });
  await telemetry.ready;
  const done = await drive(target.url + path, 3, 60, 2500);
  assert(done > 0, `no answer from ${path}`);
  await new Promise((r) => setTimeout(r, 400)); // the sampler's last tick of the load
  const series = telemetry.stop().find((s) => s.kind === "runtime" && s.name === "target");
  assert(series, "no runtime series for the target process");
  assert(series.samples.length >= 2, `too few samples: ${JSON.stringify(series)}`);
  return series;
}

/** Median of the per-tick p99 loop delays. */
const p99Of = (s: TelemetrySeries) => median(s.samples.map((x) => x.loopP99Ms ?? 0));

async function compareCpuAndSleep(spec: TargetSpec): Promise<[TelemetrySeries, TelemetrySeries]> {
  const target = await startTarget(spec);
  try {
    const cs = target.coldStart!;
    assert(
      cs.listeningMs !== null && cs.listeningMs >= 0 && cs.listeningMs <= cs.readyMs,
      JSON.stringify(cs),
    );
    const sleeping = await loopDelayUnder(target, "/sleep?ms=50");
    const busy = await loopDelayUnder(target, "/cpu?ms=50");
    assert(
      p99Of(busy) > p99Of(sleeping),
      `loop delay p99 under /cpu (${p99Of(busy)} ms) should exceed /sleep's (${p99Of(sleeping)} ms)`,
    );
    return [sleeping, busy];
  } finally {
    await target.stop();
  }
}

Deno.test("built-in target: the event loop is delayed by /cpu?ms=50, not by /sleep?ms=50", async () => {
  const [sleeping] = await compareCpuAndSleep({ kind: "builtin", runtimeTelemetry: true });
  assertEquals(sleeping.runtime, "deno");
  assert(sleeping.samples.every((s) => (s.heapUsedBytes ?? 0) > 0 && s.gc === undefined));
});

/** A node:http app with /cpu, /sleep and /alloc (garbage, for GC), on PORT. */
const NODE_APP = `
const http = require("node:http");
http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  const ms = Number(url.searchParams.get("ms") ?? 0);
  if (url.pathname === "/cpu") { const end = Date.now() + ms; while (Date.now() < end); return res.end("cpu"); }
  if (url.pathname === "/sleep") return setTimeout(() => res.end("slept"), ms);
  if (url.pathname === "/alloc") { let a = []; for (let i = 0; i < 2e5; i++) a.push({ i }); return res.end(String(a.length)); }
  res.end("ok");
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

async function nodeApp(fn: (spec: TargetSpec) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-node-app-" });
  try {
    await Deno.writeTextFile(`${dir}/app.cjs`, NODE_APP);
    const port = freePort();
    await fn({
      kind: "external",
      command: node!,
      args: ["app.cjs"],
      cwd: dir,
      env: { PORT: String(port) },
      url: `http://127.0.0.1:${port}`,
      runtimeTelemetry: true,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "Node app: the event loop is delayed by /cpu?ms=50, not by /sleep?ms=50; GC pauses by kind",
  ignore: !node && !onCi,
}, async () => {
  await nodeApp(async (spec) => {
    const [sleeping] = await compareCpuAndSleep(spec);
    assertEquals(sleeping.runtime, "node");
    const target = await startTarget(spec);
    try {
      const garbage = await loopDelayUnder(target, "/alloc");
      const minor = garbage.samples.reduce((n, s) => n + (s.gc?.minor?.count ?? 0), 0);
      assert(minor > 0, `no minor GC seen while allocating: ${JSON.stringify(garbage.samples)}`);
    } finally {
      await target.stop();
    }
  });
});

Deno.test({
  name: "Node app: a sampler that cannot write says so once and the app still serves",
  ignore: !node && !onCi,
}, async () => {
  await nodeApp(async (spec) => {
    const dir = await Deno.makeTempDir({ prefix: "loadlab-preload-" });
    try {
      await Deno.writeTextFile(`${dir}/preload.cjs`, preloadCjs());
      const external = spec as Extract<TargetSpec, { kind: "external" }>;
      // A runtime folder that does not exist: opening the sampler's file fails at the first line.
      const env = {
        ...external.env,
        NODE_OPTIONS: `--require ${dir}/preload.cjs`,
        LOADLAB_RUNTIME_DIR: `${dir}/missing`,
      };
      const target = await startTarget({
        ...external,
        env,
        logFile: `${dir}/app.log`,
        runtimeTelemetry: false,
      });
      try {
        assertEquals(await drive(target.url + "/", 1, 3, 5000), 3);
      } finally {
        await target.stop();
      }
      const log = await Deno.readTextFile(`${dir}/app.log`);
      assertEquals(log.match(/loadlab runtime sampler off: /g)?.length, 1, log);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("runtimeTelemetry: false starts no sampler in an experiment; without a log folder none is asked", async () => {
  const logDir = await Deno.makeTempDir({ prefix: "loadlab-logs-" });
  try {
    for (const [spec, opts] of [[{ runtimeTelemetry: false }, { logDir }], [{}, {}]] as const) {
      const target = await startTarget({ kind: "builtin", ...spec }, opts);
      try {
        assertEquals(target.runtimeDir, undefined);
        const telemetry = startTelemetry(target, { intervalMs: 200 });
        await drive(target.url + "/", 1, 5, 2000);
        await new Promise((r) => setTimeout(r, 500));
        assertEquals(telemetry.stop().filter((s) => s.kind === "runtime"), []);
      } finally {
        await target.stop();
      }
    }
    assertEquals([...Deno.readDirSync(logDir)].map((e) => e.name).includes("runtime"), false);
  } finally {
    await Deno.remove(logDir, { recursive: true });
  }
});

Deno.test("a deno run target gets one sampler, though Deno honours NODE_OPTIONS' --require too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-runtime-" });
  try {
    const runtime = await makeRuntimeDir(dir);
    await Deno.writeTextFile(`${dir}/idle.js`, "setTimeout(() => {}, 1200);\n");
    const { args, env } = withPreload(runtime, Deno.execPath(), ["run", "-A", `${dir}/idle.js`]);
    assertEquals(args.slice(0, 3), ["run", "--preload", runtime.mjs]);
    assert(env.NODE_OPTIONS.endsWith(`--require ${JSON.stringify(runtime.cjs)}`), env.NODE_OPTIONS);
    const out = await new Deno.Command(Deno.execPath(), { args, env, stdout: "null", stderr: "piped" })
      .output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    const files = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".jsonl"));
    assertEquals(files.length, 1);
    const times = Deno.readTextFileSync(`${dir}/${files[0].name}`).trim().split("\n").map((l) =>
      JSON.parse(l).t
    );
    // One sampler ticks every 250 ms; two would write pairs of lines a few ms apart.
    assert(times.length >= 2 && times.every((t, i) => i === 0 || t - times[i - 1] >= 150), String(times));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
