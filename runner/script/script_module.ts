/**
 * @module
 * Loading a session script (`import()` of its file URL: the same in a checkout and in a `deno compile`d
 * loadlab, which imports a file outside its bundle like any module) and naming where its errors come
 * from: a thrown error's first stack frame inside the script's folder as `file:line`, so a session's
 * failure counts under one message per place, never a stack per session. A module without a default
 * function, or one that does not load (a syntax error, a missing import), is a `ScriptLoadError`.
 * Every isolate that runs a script imports it here, which is where that isolate loses `chdir` first
 * (script_working_dir.ts) and keeps enough stack frames to reach the script's line (`SCRIPT_STACK_FRAMES`).
 */
import { basename, dirname } from "node:path";
import { pathToFileURL } from "node:url";
import type { ScriptGrpcSchema } from "./script_grpc_schema.ts";
import {
  type IntrinsicsSnapshot,
  restoreChangedIntrinsics,
  snapshotIntrinsics,
} from "./script_intrinsics.ts";
import { refuseWorkingDirChanges } from "./script_working_dir.ts";

const toFileUrl = (path: string) => pathToFileURL(path).href;

/**
 * Stack frames an error keeps in an isolate that runs a script. V8 keeps 10, and a throw deep in the
 * engine is further than that from the script's call (a bad header in `http.batch` is thrown 17 frames
 * below it), so the error lost its `file:line`. Frames are collected only as an Error is made, never on a
 * request that succeeds; a higher limit given to V8 (`--stack-trace-limit`) is kept.
 */
export const SCRIPT_STACK_FRAMES = 64;

/** What a script module exports. */
export interface ScriptModule {
  /** The session function. */
  run: (s: unknown) => unknown;
  setup: (() => unknown) | null;
  teardown: ((data: unknown) => unknown) | null;
  /** `start(s)`: once per virtual user before its first session (Locust's `on_start`). */
  start: ((s: unknown) => unknown) | null;
  options: Record<string, unknown> | null;
  /** The schema of its gRPC calls (`export const grpc`), read when it is imported; else null. */
  grpc: ScriptGrpcSchema | null;
  /** The built-ins as they were before the import, to put back what its sessions change (script_load.ts). */
  builtIns: IntrinsicsSnapshot;
}

/**
 * What loadlab's own code found wrong with a script's shape as it loaded (a converted k6 script with no
 * default function): thrown from the conversion's footer, past the script's last line, so it is named by
 * the file alone, never by a line the file does not have.
 */
export class ScriptShapeError extends TypeError {
  override name = "ScriptShapeError";
}

/** A script that cannot run: it does not load, or has no default function. */
export class ScriptLoadError extends Error {
  override name = "ScriptLoadError";
}

/** Imports the script at absolute `path` and checks its exports. */
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
      grpc = (await import("./script_grpc_schema.ts")).loadGrpcDeclaration(declared, dirname(path));
    }
  } catch (err) {
    throw new ScriptLoadError(`${basename(path)}: export grpc: ${errorText(err)}`, { cause: err });
  }
  return {
    run: mod.default as (s: unknown) => unknown,
    setup: fn("setup"),
    teardown: fn("teardown"),
    start: fn("start"),
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

/**
 * Why the script at `path` did not load, on one line from its place: a module the parser refused says
 * where in its message (` at file:///...:6:9`, the URL of a converted k6 script's cache copy), which
 * becomes the line's `file:line`; a throw of the script's own code as it ran (a SharedArray's function, a
 * check of its config) is placed by its stack.
 */
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

/**
 * A thrown value's message in one line. It never throws itself: a script throws or rejects with anything
 * (`null`, an object whose `toString` or `message` getter throws, one without a prototype, a Proxy whose
 * traps throw), and a describer that threw lost that session's count or ended its worker's isolate.
 */
export function errorText(err: unknown): string {
  let text: string;
  try {
    // A thrown plain object with a message (`throw { message: "no token" }`) by its message, not
    // "[object Object]"; one whose message getter throws, as one that cannot be shown.
    const own = typeof err === "object" && err !== null && !(err instanceof Error) && "message" in err;
    text = err instanceof Error || own ? String((err as { message: unknown }).message) : String(err);
  } catch {
    text = `a thrown ${typeof err} that cannot be shown as text (its toString or message throws)`;
  }
  return text.split("\n")[0];
}

/**
 * `message (file:line)`: where in the script's folder `err` was thrown (its first stack frame there),
 * or the message alone when the stack does not say.
 */
export function scriptErrorMessage(err: unknown, scriptPath: string): string {
  const { message, where } = scriptError(err, scriptPath);
  return where === null ? message : `${message} (${where})`;
}

/** A thrown value's message on one line and the script's `file:line` it was thrown at, null when unknown. */
export function scriptError(err: unknown, scriptPath: string): { message: string; where: string | null } {
  const stack = stackOf(err);
  return { message: errorText(err), where: stack === null ? null : placeIn(stack, scriptPath) };
}

/** `err`'s stack when it is an Error with one; null when it has none or reading it throws (a getter). */
function stackOf(err: unknown): string | null {
  try {
    const stack = err instanceof Error ? err.stack : undefined;
    return typeof stack === "string" ? stack : null;
  } catch {
    return null;
  }
}

/** The first `file:line` of `stack` in the script's folder, the file relative to it. */
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
