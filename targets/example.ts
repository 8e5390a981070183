/**
 * @module
 * Runs a framework app from `examples/`: under Node when installed with its packages, else Deno's npm
 * compatibility. The runtime chosen is reported: the frameworks study's finding depends on it.
 */
import { existsSync } from "node:fs";
import { TargetError } from "./errors.ts";
import { findProgram, programOutput } from "../system/path_lookup.ts";
import type { ExampleSpec } from "./spec.ts";

export const EXAMPLES_DIR = new URL("../examples/", import.meta.url);

/** The npm package each app needs, to tell whether `npm install --prefix examples` ran. */
const APP_PACKAGES: Record<ExampleSpec["app"], string> = {
  express: "express",
  fastify: "fastify",
  koa: "koa",
  chat: "ws",
};

export const EXAMPLES_INSTALL_HINT = "npm install --prefix examples";

/** The command that runs `spec.app` and its runtime (`node v20.20.2`); TargetError when it cannot. */
export function exampleCommand(spec: ExampleSpec, examplesDir: URL = EXAMPLES_DIR) {
  const entry = new URL(`${spec.app}/server.js`, examplesDir);
  if (examplesDir.protocol !== "file:" || !existsSync(entry)) {
    throw new TargetError(
      `example app '${spec.app}' not found at ${entry.pathname}`,
      "example apps ship in the examples/ folder of a loadlab source checkout; run loadlab from one",
    );
  }
  const cwd = examplesDir.pathname;
  const runtime = spec.runtime ?? "auto";
  const node = runtime === "deno" ? null : findProgram("node");
  const installed = existsSync(new URL(`node_modules/${APP_PACKAGES[spec.app]}/package.json`, examplesDir));
  if (node && installed) {
    const version = programOutput(node, ["--version"]);
    if (version) return { command: node, args: [entry.pathname], cwd, runtime: `node ${version}` };
  }
  if (runtime === "node") {
    throw new TargetError(
      node ? `the ${spec.app} example's packages are not installed` : "node is not on PATH",
      node ? `run '${EXAMPLES_INSTALL_HINT}' once` : "install Node.js, or use runtime: deno (or auto)",
    );
  }
  // --node-modules-dir=none: resolve examples/package.json from Deno's cache, never touch node_modules.
  const args = ["run", "-A", "--quiet", "--no-lock", "--node-modules-dir=none", entry.pathname];
  return { command: Deno.execPath(), args, cwd, runtime: `deno ${Deno.version.deno} (npm compat)` };
}
