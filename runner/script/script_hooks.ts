/**
 * @module
 * A session script's `setup()` and `teardown()` around one run (k6's lifecycle): setup once before the
 * workers start, its return value handed to every session (`s.setup`, so it must be structured-
 * cloneable: it crosses into the worker isolates), teardown once after the load with that value, also
 * when the load failed. Both run in loadlab's main isolate and reach the target with `fetch`; their
 * requests are not measured. A throw in setup ends the run before any load (`ScriptSetupError`); one in
 * teardown is reported the same way after the results are complete.
 */
import type { AttackConfig } from "../config.ts";
import { importScript } from "./script_module.ts";
import { scriptErrorMessage } from "./script_module.ts";

/** setup() or teardown() threw: the message names the script's line. */
export class ScriptSetupError extends Error {
  override name = "ScriptSetupError";
}

/** Runs `load` with `config.script.setupData` set from the script's setup(), then its teardown(). */
export async function withScriptSetup<T>(
  config: AttackConfig,
  load: (config: AttackConfig) => Promise<T>,
): Promise<T> {
  const script = config.script;
  if (script === undefined) return load(config);
  const module = await importScript(script.path);
  let setupData: unknown = undefined;
  if (module.setup !== null) {
    try {
      setupData = await module.setup();
      structuredClone(setupData);
    } catch (err) {
      throw new ScriptSetupError(`setup() failed: ${scriptErrorMessage(err, script.path)}`, { cause: err });
    }
  }
  let result: T;
  try {
    // Sessions read loadlab's environment as `s.env` (k6's __ENV) unless the config gives one.
    const env = Object.keys(script.env).length > 0 ? script.env : Deno.env.toObject();
    result = await load({ ...config, script: { ...script, setupData, env } });
  } catch (err) {
    // A failed load's own error wins over a teardown's.
    await teardown(module.teardown, setupData, script.path).catch(() => {});
    throw err;
  }
  await teardown(module.teardown, setupData, script.path);
  return result;
}

async function teardown(
  fn: ((data: unknown) => unknown) | null,
  setupData: unknown,
  path: string,
): Promise<void> {
  if (fn === null) return;
  try {
    await fn(setupData);
  } catch (err) {
    throw new ScriptSetupError(`teardown() failed: ${scriptErrorMessage(err, path)}`, { cause: err });
  }
}
