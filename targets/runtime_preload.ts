/**
 * @module
 * Injects the runtime sampler into the targets loadlab starts: two preload files in the target's runtime
 * folder, `--require` through `NODE_OPTIONS` for Node (reaching a node a wrapper forks), `--preload` for
 * `deno run`; loadlab's own target processes call it directly. `runtimeTelemetry: false` turns it off.
 */
import { basename, resolve } from "node:path";
import { RUNTIME_DIR_ENV, samplerSource } from "./runtime_sampler.ts";

/** The sampler as a CommonJS preload (Node's `--require`). */
export function preloadCjs(): string {
  return `"use strict";\n${samplerSource()}\nruntimeSampler({ perfHooks: require("node:perf_hooks"), ` +
    `fs: require("node:fs"), proc: process });\n`;
}

/** The sampler as an ES module preload (Deno's `--preload`). */
function preloadMjs(): string {
  return `import * as perfHooks from "node:perf_hooks";\nimport * as fs from "node:fs";\n` +
    `import proc from "node:process";\n${samplerSource()}\nruntimeSampler({ perfHooks, fs, proc });\n`;
}

/** Where a target's samplers write, and the preload files they are started from. */
export interface RuntimeDir {
  dir: string;
  cjs: string;
  mjs: string;
}

/**
 * Creates `dir` with both preload files in it. The paths are absolute: the target runs in a folder of its
 * own, and Node reads a relative `--require` as a package name. Symlinks and special files already in it
 * are removed, so none sits where a sampler's `<pid>.jsonl` goes (the sampler refuses them as well).
 */
export async function makeRuntimeDir(folder: string): Promise<RuntimeDir> {
  const dir = resolve(folder);
  await Deno.mkdir(dir, { recursive: true });
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile && !entry.isDirectory) await Deno.remove(`${dir}/${entry.name}`);
  }
  const cjs = `${dir}/preload.cjs`, mjs = `${dir}/preload.mjs`;
  await writeFresh(cjs, preloadCjs());
  await writeFresh(mjs, preloadMjs());
  return { dir, cjs, mjs };
}

/**
 * Writes loadlab's own file at `path` as a new regular file: whatever is there (a file of an earlier run, a
 * symlink or a FIFO someone planted in the out folder) is removed first, never written through or waited on.
 */
async function writeFresh(path: string, text: string): Promise<void> {
  await Deno.remove(path).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  await Deno.writeTextFile(path, text, { createNew: true });
}

/**
 * The command's arguments and environment with the sampler injected: `NODE_OPTIONS` gains
 * `--require` (after any options the user set), and `deno run ...` gains `--preload`.
 */
export function withPreload(
  runtime: RuntimeDir,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): { args: string[]; env: Record<string, string> } {
  const inherited = env.NODE_OPTIONS ?? Deno.env.get("NODE_OPTIONS") ?? "";
  const nodeOptions = `${inherited} --require ${JSON.stringify(runtime.cjs)}`.trim();
  const isDenoRun = /^deno(\.exe)?$/.test(basename(command)) && args[0] === "run";
  return {
    args: isDenoRun ? ["run", "--preload", runtime.mjs, ...args.slice(1)] : args,
    env: { ...env, NODE_OPTIONS: nodeOptions, [RUNTIME_DIR_ENV]: runtime.dir },
  };
}
