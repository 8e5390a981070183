/**
 * @module
 * Injects the runtime sampler: `--require` in NODE_OPTIONS (forks too), `--preload` for Deno.
 */
import { basename, resolve } from "node:path";
import { RUNTIME_DIR_ENV, samplerSource } from "./runtime_sampler.ts";

export function preloadCjs(): string {
  return `"use strict";\n${samplerSource()}\nruntimeSampler({ perfHooks: require("node:perf_hooks"), ` +
    `fs: require("node:fs"), proc: process });\n`;
}

function preloadMjs(): string {
  return `import * as perfHooks from "node:perf_hooks";\nimport * as fs from "node:fs";\n` +
    `import proc from "node:process";\n${samplerSource()}\nruntimeSampler({ perfHooks, fs, proc });\n`;
}

/** Where a target's samplers write, and the preload files they are started from. */
export type RuntimeDir = Awaited<ReturnType<typeof makeRuntimeDir>>;

/**
 * Creates `dir` with both preload files at absolute paths (Node reads a relative `--require` as a package).
 * Symlinks and special files in it are removed, so none sits where a sampler's `<pid>.jsonl` goes.
 */
export async function makeRuntimeDir(folder: string) {
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

/** Writes `path` as a new regular file: whatever is there (a planted symlink or FIFO) is removed first. */
async function writeFresh(path: string, text: string): Promise<void> {
  await Deno.remove(path).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  await Deno.writeTextFile(path, text, { createNew: true });
}

/** The command with the sampler injected: `NODE_OPTIONS` gains `--require`, `deno run` `--preload`. */
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
