/**
 * @module
 * The main side of a session script's own isolate (hooks_worker.ts): `ScriptHost.open` imports the
 * script there and learns what it exports (its `options`, whether it has `setup` and `teardown`);
 * `call` runs setup, teardown or a k6 script's handleSummary. Every step ends in one outcome: its value, the script's throw (its
 * message with file:line), the time limit, the signal, or the isolate's own end (`Deno.exit`); on the
 * last three the isolate is terminated, so nothing a script does there keeps loadlab waiting or ends
 * loadlab itself.
 */

/** The isolate's name (`self.name` there): how a script tells it from a load worker, should it need to. */
export const SCRIPT_HOST_NAME = "loadlab-script-host";

/** What the main side asks of the script's isolate. */
export type HostRequest =
  | { type: "import"; path: string }
  | { type: "setup" }
  | { type: "teardown"; data: unknown }
  /** A k6 script's `handleSummary(data)`: its answer. */
  | { type: "summary"; data: unknown };

/** What the script's isolate answers. */
export type HostReply =
  | { type: "ready" }
  | {
    type: "imported";
    setup: boolean;
    teardown: boolean;
    summary: boolean;
    options: Record<string, unknown> | null;
  }
  | { type: "done"; value: unknown }
  | { type: "failed"; message: string }
  | { type: "exited" };

/** How one step in the script's isolate ended. */
export type HostOutcome =
  | { kind: "done"; value: unknown }
  /** The script threw (or returned what cannot be cloned): `message` names its line. */
  | { kind: "failed"; message: string }
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "stopped" }
  /** The isolate ended on its own (`Deno.exit`, `process.exit`). */
  | { kind: "exited" };

/** What a script exports, as its isolate reported it. */
export interface ScriptExports {
  setup: boolean;
  teardown: boolean;
  /** A k6 script's `handleSummary`. */
  summary: boolean;
  options: Record<string, unknown> | null;
}

/** A session script loaded in an isolate of its own. */
export class ScriptHost {
  readonly #worker: Worker;
  #ended = false;

  private constructor() {
    this.#worker = new Worker(new URL("./hooks_worker.ts", import.meta.url).href, {
      type: "module",
      name: SCRIPT_HOST_NAME,
    });
  }

  /** Imports the script at `path` in a new isolate: the host and its exports, or how the import ended. */
  static async open(
    path: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ host: ScriptHost; exports: ScriptExports } | { host: null; outcome: HostOutcome }> {
    const host = new ScriptHost();
    const outcome = await host.#ask({ type: "import", path }, timeoutMs, signal);
    if (outcome.kind !== "done") {
      host.close();
      return { host: null, outcome };
    }
    return { host, exports: outcome.value as ScriptExports };
  }

  /** Runs the script's setup (or teardown with `data`). */
  call(request: HostRequest, timeoutMs: number, signal?: AbortSignal): Promise<HostOutcome> {
    return this.#ask(request, timeoutMs, signal);
  }

  /** Ends the isolate (whatever the script left running in it). */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#worker.terminate();
  }

  /** Sends `request` and waits for its one outcome; the isolate is ended unless it answered. */
  #ask(request: HostRequest, timeoutMs: number, signal?: AbortSignal): Promise<HostOutcome> {
    if (this.#ended) return Promise.resolve({ kind: "exited" });
    return new Promise((resolve) => {
      const end = (outcome: HostOutcome) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#worker.onmessage = null;
        this.#worker.onerror = null;
        if (outcome.kind !== "done" && outcome.kind !== "failed") this.close();
        resolve(outcome);
      };
      const onAbort = () => end({ kind: "stopped" });
      const timer = setTimeout(() => end({ kind: "timeout", timeoutMs }), timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#worker.onerror = (e) => {
        e.preventDefault();
        end({ kind: "failed", message: e.message });
      };
      this.#worker.onmessage = (e: MessageEvent<HostReply>) => {
        const reply = e.data;
        if (reply.type === "exited") end({ kind: "exited" });
        else if (reply.type === "failed") end({ kind: "failed", message: reply.message });
        else if (reply.type === "done") end({ kind: "done", value: reply.value });
        else if (reply.type === "imported") end({ kind: "done", value: reply });
      };
      if (signal?.aborted) return onAbort();
      this.#worker.postMessage(request);
    });
  }
}
