/**
 * @module
 * Loading a session script and naming where its errors come from: a thrown error's first stack frame inside
 * the script's folder as `file:line`, so a session's failure counts under one message per place.
 */
import { basename, dirname } from "node:path";
import { pathToFileURL } from "node:url";
import process from "node:process";
import type { ScriptGrpcSchema } from "./sessions/grpc_schema.ts";
import { type IntrinsicsSnapshot, restoreChangedIntrinsics, snapshotIntrinsics } from "./intrinsics.ts";

const toFileUrl = (path: string) => pathToFileURL(path).href;

/** Stack frames an error keeps where a script runs: V8's 10 miss its line from deep in the engine. */
const SCRIPT_STACK_FRAMES = 64;

export interface ScriptModule {
  run: (s: unknown) => unknown;
  setup: (() => unknown) | null;
  teardown: ((data: unknown) => unknown) | null;
  /** `start(s)` (Locust's `on_start`), run once per virtual user; with it the user's jar is kept. */
  start: ((s: unknown) => unknown) | null;
  /** `stop(s)` (Locust's `on_stop`), run once per closed loop's user as it stops; its think times end. */
  stop: ((s: unknown) => unknown) | null;
  options: Record<string, unknown> | null;
  grpc: ScriptGrpcSchema | null;
  builtIns: IntrinsicsSnapshot;
}

/** A script of the wrong shape found by loadlab's own code: named by the file alone, never a line. */
export class ScriptShapeError extends TypeError {
  override name = "ScriptShapeError";
}

class ScriptLoadError extends Error {
  override name = "ScriptLoadError";
}

export async function importScript(path: string): Promise<ScriptModule> {
  let mod: Record<string, unknown>;
  refuseWorkingDirChanges();
  if (!(Error.stackTraceLimit >= SCRIPT_STACK_FRAMES)) Error.stackTraceLimit = SCRIPT_STACK_FRAMES;
  const builtIns = snapshotIntrinsics();
  try {
    mod = await import(toFileUrl(path));
  } catch (err) {
    throw new ScriptLoadError(loadFailure(err, path), { cause: err });
  } finally {
    refuseChangedIntrinsics(builtIns, path);
  }
  if (typeof mod.default !== "function") {
    throw new ScriptLoadError(
      `${basename(path)}: no default export to run per session; add ` +
        "`export default async (s: Session) => { ... }`",
    );
  }
  const fn = (name: string) => {
    const f = mod[name];
    if (f === undefined) return null;
    if (typeof f !== "function") {
      throw new ScriptLoadError(`${basename(path)}: export ${name} must be a function`);
    }
    return f as () => unknown;
  };
  const options = mod.options;
  if (options !== undefined && (typeof options !== "object" || options === null || Array.isArray(options))) {
    throw new ScriptLoadError(
      `${basename(path)}: export options must be an object (what an experiment file says)`,
    );
  }
  let grpc: ScriptGrpcSchema | null = null;
  try {
    // The protobuf library loads only for a script that declares a schema.
    const declared = mod.grpc;
    if (declared !== undefined) {
      grpc = (await import("./sessions/grpc_schema.ts")).loadGrpcDeclaration(declared, dirname(path));
    }
  } catch (err) {
    throw new ScriptLoadError(`${basename(path)}: export grpc: ${errorText(err)}`, { cause: err });
  }
  return {
    run: mod.default as (s: unknown) => unknown,
    setup: fn("setup"),
    teardown: fn("teardown"),
    start: fn("start"),
    stop: fn("stop"),
    options: (options as Record<string, unknown> | undefined) ?? null,
    grpc,
    builtIns,
  };
}

/** A throw naming the built-ins the script's top level changed (put back first, so the error is told). */
function refuseChangedIntrinsics(before: ReturnType<typeof snapshotIntrinsics>, path: string): void {
  const changed = restoreChangedIntrinsics(before);
  if (changed.length === 0) return;
  const named = changed.slice(0, 3).join(", ") +
    (changed.length > 3 ? ` and ${changed.length - 3} more` : "");
  throw new ScriptLoadError(
    `${basename(path)}: its top level changes JavaScript's built-ins (${named}), which loadlab's engine ` +
      "in the same isolate relies on; keep the script's helpers on objects of its own",
  );
}

/** What a script's own failure to load says after its place (a throw, a parse error, no default). */
export const DOES_NOT_LOAD = ": does not load: ";

function loadFailure(err: unknown, path: string): string {
  const text = errorText(err);
  const parsed = placeIn(text, path);
  if (parsed !== null) {
    const message = text.replace(/ at file:\/\/\S+$/, "");
    return `${parsed}${DOES_NOT_LOAD}${message}; a module must parse before it runs`;
  }
  const stack = err instanceof ScriptShapeError ? null : stackOf(err);
  const where = stack === null ? null : placeIn(stack, path);
  return where === null
    ? `${basename(path)}${DOES_NOT_LOAD}${text}`
    : `${where}${DOES_NOT_LOAD}${text}; its top level must run without throwing`;
}

/** A thrown value's message in one line; never throws itself, whatever a script throws. */
export function errorText(err: unknown): string {
  let text: string;
  try {
    // A thrown plain object by its message, not "[object Object]".
    const own = typeof err === "object" && err !== null && !(err instanceof Error) && "message" in err;
    text = err instanceof Error || own ? String((err as { message: unknown }).message) : String(err);
  } catch {
    text = `a thrown ${typeof err} that cannot be shown as text (its toString or message throws)`;
  }
  return text.split("\n")[0];
}

/** `value` as text; a value that cannot be made text throws a `TypeError` saying `what` and the fix. */
export function scriptText(value: unknown, what: string, fix: string): string {
  if (typeof value === "string") return value;
  try {
    return String(value);
  } catch {
    throw new TypeError(`${what} cannot be shown as text (its toString throws): ${fix}`);
  }
}

/** `message (file:line)`: where in the script's folder `err` was thrown, or the message alone. */
export function scriptErrorMessage(err: unknown, scriptPath: string): string {
  const { message, where } = scriptError(err, scriptPath);
  return where === null ? message : `${message} (${where})`;
}

export function scriptError(err: unknown, scriptPath: string): { message: string; where: string | null } {
  const stack = stackOf(err);
  return { message: errorText(err), where: stack === null ? null : placeIn(stack, scriptPath) };
}

function stackOf(err: unknown): string | null {
  try {
    const stack = err instanceof Error ? err.stack : undefined;
    return typeof stack === "string" ? stack : null;
  } catch {
    return null;
  }
}

function placeIn(stack: string, scriptPath: string): string | null {
  const folder = toFileUrl(dirname(scriptPath)) + "/";
  for (const line of stack.split("\n")) {
    const at = line.indexOf(folder);
    if (at < 0) continue;
    const m = /^([^\s)]+?):(\d+):\d+/.exec(line.slice(at + folder.length));
    // A locustfile's conversion (NAME.py.js) keeps its lines: its place is the locustfile's.
    if (m !== null) return `${m[1].endsWith(".py.js") ? m[1].slice(0, -3) : m[1]}:${m[2]}`;
  }
  return null;
}

/** What setup() or teardown() started that k6's event loop awaits (a gRPC stream), and its throw. */
const hookHolds: Promise<{ err: unknown } | null>[] = [];

export const holdHook = (done: Promise<unknown>) =>
  void hookHolds.push(done.then(() => null, (err) => ({ err })));

/** Waits for the hook's holds, those they start included; the first throw is the hook's. */
export async function hookSettled(): Promise<void> {
  for (let held; (held = hookHolds.shift()) !== undefined;) {
    const failed = await held;
    if (failed !== null) throw failed.err;
  }
}

/** Refuses `Deno.chdir` and `process.chdir` here: the process's one working directory is loadlab's too. */
function refuseWorkingDirChanges(): void {
  Deno.chdir = chdirRefusal("Deno.chdir");
  process.chdir = chdirRefusal("process.chdir");
}

function chdirRefusal(call: string): (dir: string | URL) => never {
  return () => {
    throw new Error(
      `${call}() would move the working directory of loadlab's whole process, which writes the run's ` +
        "results by relative paths; read the script's files by absolute path or " +
        "`new URL('./file', import.meta.url)` instead",
    );
  };
}
