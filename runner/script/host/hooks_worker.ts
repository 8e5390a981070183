/**
 * @module
 * The isolate a session script's module, `setup()`, `teardown()` and handleSummary run in, so whatever the
 * script does there cannot take loadlab with it; one per script, so setup and teardown share module state.
 */
/// <reference lib="deno.worker" />
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { MAX_EXPERIMENT_FILE_BYTES } from "../../../validation/input_limits.ts";
import { errorText, hookSettled, importScript, scriptErrorMessage, type ScriptModule } from "../module.ts";
import type { HostReply, HostRequest, ScriptExports } from "./host.ts";
import { cloneBytes } from "./clone_bytes.ts";
import { expectedStatuses } from "../../stats/recorder.ts";
import { givenRunTags, setRunTags } from "../k6/tags.ts";
import { isolateFlags } from "../k6/isolate_flags.ts";
import { setupDataOf } from "../k6/data.ts";
import { restoreWorkerNames, routeHooks, takeMainChannel } from "../worker_scope.ts";
import { guardScriptConsole } from "../sessions/names.ts";
import { passInputs } from "../isolate_inputs.ts";
import { conversionKindOf } from "../cache_dir.ts";

restoreWorkerNames();
// Taken before the script loads: its own posts refuse (worker_scope.ts).
const post = takeMainChannel<HostReply>();
let module: ScriptModule | null = null;
let path = "";
/** k6's HTTP and metrics, whose runtime reads the run's inputs as it loads: imported once they are in. */
let k6Http: typeof import("../k6/http.ts") | undefined;
let k6Metrics: typeof import("../k6/metrics.ts") | undefined;

self.onmessage = async (event: MessageEvent<HostRequest>) => {
  const msg = event.data;
  if (msg.type === "ping") return post({ kind: "alive" });
  try {
    if (msg.type === "import") {
      path = msg.path;
      // The run's inputs, as the isolate may have started before they were known (cli/early_start.ts).
      passInputs(msg.inputs, true);
      // setup() and teardown() read loadlab's environment (hooks.ts).
      guardScriptConsole();
      // A conversion (k6, Locust, Artillery) may use k6's runtime; the user's own script never: not loaded.
      if (conversionKindOf(path) !== null) k6Http = await import("../k6/http.ts");
      k6Metrics = k6Http && await import("../k6/metrics.ts");
      if (msg.routes !== undefined && Object.keys(msg.routes).length > 0) routeHooks(msg.routes);
      // The script's own top level starts here: loadlab's modules above, cold, may hold the isolate longer.
      post({ kind: "alive", script: true });
      module = await importScript(path);
      if (k6Http) (await import("../k6/execution.ts")).enterHooks();
      // As k6 tags every sample: setup() and teardown()'s requests carry the run's tags too.
      setRunTags(givenRunTags(module.options ?? {}));
      const exports: ScriptExports = {
        setup: module.setup !== null || Symbol.for("loadlab.k6InitVus") in module.run,
        summary: typeof (await import(pathToFileURL(path).href)).handleSummary === "function",
        teardown: module.teardown !== null,
        options: plainOptions(module.options),
        metrics: k6Metrics?.madeMetrics() ?? {},
        expectedStatuses,
      };
      post({ kind: "done", value: exports });
    } else if (msg.type === "setup") {
      // As k6, every VU's init code runs before setup(): a k6 script's that reads `__VU` (runtime.ts).
      await Reflect.get(module!.run, Symbol.for("loadlab.k6InitVus"))?.();
      const given = isolateFlags.options?.noSetup ? undefined : await module!.setup?.();
      await hookSettled();
      // A k6 script's VUs get the data through JSON, as k6's, once setup's event loop has run.
      const data = isolateFlags.options ? setupDataOf(given) : given;
      fitInMemory(data, msg.limitMb, msg.copies);
      postDone(data, "its value cannot cross to the load workers");
    } else if (msg.type === "summary") {
      const handle = (await import(pathToFileURL(path).href)).handleSummary;
      postDone(summaryContents(await handle(msg.data)), "its answer cannot be written");
    } else {
      if (k6Http) (await import("../k6/execution.ts")).enterHooks("teardown");
      if (!isolateFlags.options?.noTeardown) await module!.teardown?.(msg.data);
      await hookSettled();
      post({ kind: "done", value: undefined, sent: sentBy("teardown") });
    }
  } catch (err) {
    const message = msg.type === "import" ? errorText(err) : scriptErrorMessage(err, path);
    post({ kind: "failed", message, sent: sentBy(msg.type) });
  }
};

/** What hook `phase` sent; the metrics it added go to the main isolate first, as a VU's do. */
function sentBy(phase: string) {
  k6Metrics?.flushMetrics();
  return k6Http?.takeHookRequests(phase) ?? [];
}

function postDone(value: unknown, what: string): void {
  try {
    post({ kind: "done", value, sent: sentBy("setup") });
  } catch (err) {
    throw cloneRefusal(what, err);
  }
}

function cloneRefusal(what: string, err: unknown): Error {
  return new Error(`${what}: ${errorText(err)} (a function, a class instance with private state...)`);
}

/** Throws unless `copies` of setup()'s `value` fit in what loadlab has left under `limitMb`. */
function fitInMemory(value: unknown, limitMb: number, copies: number): void {
  const leftBytes = limitMb * 2 ** 20 - Deno.memoryUsage().rss;
  const bytes = cloneBytes(value, leftBytes / copies);
  if (bytes * copies <= leftBytes) return;
  const mb = (n: number) => Math.max(0, Math.round(n / 2 ** 20));
  const workers = `${copies - 1} load worker${copies === 2 ? "" : "s"}`;
  throw new Error(
    `its value holds at least ${mb(bytes)} MB, and loadlab's main isolate and ${workers} each get a ` +
      `copy: past loadlab's memory limit of ${limitMb} MB (${mb(leftBytes)} MB left; ` +
      "--max-memory-mb or maxMemoryMb to change); return less and let each session fetch or build the rest",
  );
}

/** The script's `options` when an experiment file could say them (JSON, within its cap), else a throw. */
function plainOptions<T>(options: T): T {
  const what = `${basename(path)}: export options must be plain data (what an experiment file says)`;
  let text: string | undefined;
  try {
    structuredClone(options);
  } catch (err) {
    throw cloneRefusal(what, err);
  }
  try {
    text = JSON.stringify(options);
  } catch (err) {
    throw new Error(`${what}: ${errorText(err)}`);
  }
  // As large as an experiment file may be: planning a few MB of thresholds takes gigabytes.
  if (text !== undefined && text.length > MAX_EXPERIMENT_FILE_BYTES) {
    const mib = (text.length / 2 ** 20).toFixed(1);
    const cap = MAX_EXPERIMENT_FILE_BYTES / 2 ** 20;
    throw new Error(`${what}: ${mib} MiB as JSON, more than an experiment file's ${cap} MiB`);
  }
  return options;
}

// `Deno.exit` or `process.exit` in the script ends this isolate only, with no word but this event.
self.addEventListener("unload", () => post({ kind: "exited" }));

post({ kind: "alive" });

/** handleSummary's `answer` of text or bytes values (another type refuses it all, as k6's); else as it is. */
function summaryContents(answer: unknown): unknown {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return answer;
  const out: Record<string, string | Uint8Array> = {};
  for (const [key, value] of Object.entries(answer)) {
    if (typeof value === "string" || value instanceof Uint8Array) out[key] = value;
    else if (value instanceof ArrayBuffer) out[key] = new Uint8Array(value);
    else return new TypeError(`${key}: a value of type ${typeof value}, not text or an ArrayBuffer`);
  }
  return out;
}
