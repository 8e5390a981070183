/**
 * @module
 * The main side of a session script's own isolate (hooks_worker.ts). Every step ends in one outcome, and on
 * any but a value or a throw the isolate is terminated, so nothing a script does there keeps loadlab waiting.
 */
import type { ExpectedStatuses } from "../../../results/schema/keys.ts";
import type { HookRecord } from "../../../results/hook_requests.ts";
import { Worker as NodeWorker } from "node:worker_threads";
import {
  cutPastMemoryLimit,
  type MemoryCut,
  memoryLimitMbBesideRuns,
  reachedHeapCap,
  scriptHeapCapMb,
} from "../../worker/memory_limit.ts";
import { inputs } from "../isolate_inputs.ts";

/** The isolate's name (`self.name` there): how a script tells it from a load worker. */
const SCRIPT_HOST_NAME = "loadlab-script-host";
/** Each script's exports as this process imported it, and the memory limit its top level ran under. */
const imported = new Map<string, { exports: ScriptExports; limitMb: number }>();
/** The isolate `startEarlyHost` began, until the first host takes it; `readyMs` once it has loaded. */
type EarlyHost = { worker: NodeWorker; limitMb: number; readyMs: number | null; exited: boolean };
let early: EarlyHost | null = null;

function spawnHost(memoryLimitMb: number): NodeWorker {
  return new NodeWorker(new URL("./hooks_worker.ts", import.meta.url), {
    name: SCRIPT_HOST_NAME,
    resourceLimits: { maxOldGenerationSizeMb: scriptHeapCapMb(memoryLimitMb) },
  });
}

/** Starts a host isolate before the command has read its script (cli/early_start.ts); the first takes it. */
export function startEarlyHost(): void {
  const limitMb = memoryLimitMbBesideRuns();
  const started: EarlyHost = early = { worker: spawnHost(limitMb), limitMb, readyMs: null, exited: false };
  const { worker } = started;
  worker.unref();
  worker.once("message", () => started.readyMs = performance.now());
  // An isolate that failed to load ends: the first host then starts its own.
  worker.on("error", () => {}).once("exit", () => started.exited = true);
}

/** The early isolate when it has this limit and lives, else null (an early one of another is ended). */
export function takeEarlyHost(memoryLimitMb: number): EarlyHost | null {
  const taken = early?.limitMb === memoryLimitMb && !early.exited ? early : null;
  if (early !== null && taken === null) early.worker.terminate().catch(() => {});
  early = null;
  taken?.worker.removeAllListeners().ref();
  return taken;
}

export type HostRequest =
  /** `routes`: where the script's fetches to an origin named there go. */
  | { type: "import"; path: string; inputs: typeof inputs; routes?: Readonly<Record<string, string>> }
  | { type: "setup"; limitMb: number; copies: number }
  | { type: "teardown"; data: unknown }
  /** A k6 script's `handleSummary(data)`: its answer. */
  | { type: "summary"; data: unknown }
  /** Answered at once by an isolate whose event loop turns: one in a loop that never yields cannot. */
  | { type: "ping" };

export type HostOutcome =
  /** `sent`: the requests a k6 script's hook sent (k6 counts them in its metrics). */
  | { kind: "done"; value: unknown; sent?: HookRecord[] }
  /** The script threw (or returned what cannot be cloned): `message` names its line. */
  | { kind: "failed"; message: string; sent?: HookRecord[] }
  | { kind: "timeout"; timeoutMs: number }
  /** The top level ran `busyMs` without yielding: no ping was answered. */
  | { kind: "busy"; busyMs: number }
  | { kind: "memory"; limitMb: number }
  | { kind: "stopped" }
  | { kind: "exited" };

/** What the isolate posts: a step's outcome, or "alive" (loaded, a ping; `script`: its top level starts). */
export type HostReply = HostOutcome | { kind: "alive"; script?: true };

export interface ScriptExports {
  setup: boolean;
  teardown: boolean;
  /** A k6 script's `handleSummary`. */
  summary: boolean;
  options: Record<string, unknown> | null;
  /** A k6 script's own metrics (`new Counter("errors")`), by name. */
  metrics: Record<string, { kind: "trend" | "counter" | "rate" | "gauge"; time: boolean }>;
  /** The statuses a k6 script's `http.setResponseCallback` expects; undefined: k6's default. */
  expectedStatuses?: ExpectedStatuses;
}

/** A stop (Ctrl-C, SIGTERM) while the script was checked, imported or ran setup(): no load was sent. */
export class ScriptStopped extends Error {
  override name = "ScriptStopped";
  /** The experiment's name when a file's plan was read (else the script's file names it). */
  experiment?: string;
  constructor(readonly phase: string) {
    super(`stopped during ${phase}: no load was sent`);
  }
}

export class ScriptHost {
  readonly #worker: NodeWorker;
  readonly #memoryLimitMb: number;
  #pending: ((outcome: HostOutcome) => void) | null = null;
  #memory: MemoryCut | null = null;
  #ended = false;
  /** When the isolate last answered (its "ready" or a ping); null until it has loaded. */
  #answeredMs: number | null = null;
  #pingedMs = performance.now();
  /** An import was asked and its script's top level has not started: loadlab's own modules load first. */
  #importing = false;

  private constructor(memoryLimitMb: number) {
    this.#memoryLimitMb = memoryLimitMb;
    const taken = takeEarlyHost(memoryLimitMb);
    this.#answeredMs = taken?.readyMs ?? null;
    this.#worker = taken?.worker ?? spawnHost(memoryLimitMb);
    this.#worker.on("message", (reply: HostReply) => {
      if (reply.kind !== "alive") this.#pending?.(reply);
      else if (reply.script || !this.#importing) {
        this.#importing = false;
        this.#answeredMs = performance.now();
      }
    });
    this.#worker.on("error", (err: unknown) => {
      // At its heap's cap (the limit) the isolate may end itself before the memory watch reads the RSS.
      if (reachedHeapCap(err)) return this.#memory?.cut();
      this.#pending?.({ kind: "failed", message: err instanceof Error ? err.message : String(err) });
    });
    // An uncaught throw ends a node:worker_threads isolate (after its error): a later step is not waited on.
    this.#worker.on("exit", () => {
      this.#ended = true;
      this.#pending?.({ kind: "exited" });
    });
  }

  static async open(
    path: string,
    timeoutMs: number,
    memoryLimitMb: number,
    signal?: AbortSignal,
    routes?: Readonly<Record<string, string>>,
  ): Promise<{ host: ScriptHost; exports: ScriptExports } | { host: null; outcome: HostOutcome }> {
    const host = new ScriptHost(memoryLimitMb);
    const outcome = await host.call({ type: "import", path, inputs, routes }, timeoutMs, signal);
    if (outcome.kind !== "done") {
      host.close();
      return { host: null, outcome };
    }
    imported.set(path, { exports: outcome.value as ScriptExports, limitMb: memoryLimitMb });
    return { host, exports: outcome.value as ScriptExports };
  }

  /** The exports of the script at `path` as imported here before, its top level within `limitMb`. */
  static importedBefore(path: string, limitMb: number): ScriptExports | undefined {
    const known = imported.get(path);
    return known !== undefined && known.limitMb <= limitMb ? known.exports : undefined;
  }

  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#worker.terminate().catch(() => {});
  }

  /** Asks the isolate to answer; `end`s the step as busy once it has not answered for `BUSY_MS`. */
  #ping(end: (outcome: HostOutcome) => void): void {
    const nowMs = performance.now();
    // A tick far behind its time (this isolate, or the whole process, held): answers may be queued behind it.
    const late = nowMs - this.#pingedMs > 4 * PING_EVERY_MS;
    this.#pingedMs = nowMs;
    if (this.#answeredMs === null) return;
    const silentMs = nowMs - this.#answeredMs;
    if (silentMs >= BUSY_MS && !late) return end({ kind: "busy", busyMs: Math.round(silentMs) });
    this.#worker.postMessage({ type: "ping" } satisfies HostRequest);
  }

  call(request: HostRequest, timeoutMs: number, signal?: AbortSignal): Promise<HostOutcome> {
    if (this.#ended) return Promise.resolve({ kind: "exited" });
    return new Promise((resolve) => {
      let settled = false;
      const settle = () => {
        settled = true;
        this.#pending = null;
        this.#memory = null;
        clearTimeout(timer);
        clearInterval(pings);
        memory.stop();
        signal?.removeEventListener("abort", onAbort);
      };
      const end = (outcome: HostOutcome) => {
        if (settled) return;
        settle();
        if (outcome.kind !== "done" && outcome.kind !== "failed") this.close();
        resolve(outcome);
      };
      const onAbort = () => end({ kind: "stopped" });
      const timer = setTimeout(() => end({ kind: "timeout", timeoutMs }), timeoutMs);
      // A top level that does not answer for BUSY_MS cannot be awaiting: it is a loop, ended now.
      this.#pingedMs = performance.now();
      // Silence counts from the isolate's word that the script's top level starts, not from this request.
      if (request.type === "import") [this.#answeredMs, this.#importing] = [null, true];
      const pings = request.type === "import" ? setInterval(() => this.#ping(end), PING_EVERY_MS) : undefined;
      // Past the limit the isolate is ended at once; the outcome waits until its memory is given back.
      const limitMb = this.#memoryLimitMb;
      const memory = cutPastMemoryLimit(limitMb, () => {
        if (settled) return;
        settle();
        this.close();
      });
      memory.over.then(() => resolve({ kind: "memory", limitMb }));
      this.#pending = end;
      this.#memory = memory;
      signal?.addEventListener("abort", onAbort, { once: true });
      if (signal?.aborted) return onAbort();
      this.#worker.postMessage(request);
    });
  }
}

const PING_EVERY_MS = 250;
/** How long a script's top level may run without yielding before it counts as a loop that never ends. */
const BUSY_MS = 5_000;

export function busyText(busyMs: number): string {
  return `its top level ran ${Math.floor(busyMs / 1000)} s without yielding (a loop that never ends?): ` +
    `loadlab ends a top level that does not yield within ${BUSY_MS / 1000} s`;
}
