/**
 * @module
 * CPU profiles of a target's Node and Deno processes through the V8 inspector (`profile: cpu`). Each
 * such process is started with `--inspect=127.0.0.1:<port>`; around each run loadlab opens one inspector
 * session per process, sends `Profiler.start` just before the load and `Profiler.stop` just after it, and
 * gets the profile back in the `.cpuprofile` format Chrome DevTools and speedscope open. This is chosen
 * over `--cpu-prof` (a profile written when the process exits) because it is exact: one profile covers
 * one run's window and nothing else (no start-up, no idle time between runs), the target stays up
 * between runs as the experiment's `restart` policy says (so a profiled run is warmed up exactly like an
 * unprofiled one), and it does not depend on the app exiting cleanly: Node's `--cpu-prof` writes nothing
 * when SIGTERM ends a process that does not handle it. Only the `Profiler` domain is used (never
 * `Debugger`, which would deoptimize code).
 */
import { TargetError } from "./errors.ts";

/** A process of a running target with an inspector listening on loopback. */
export interface InspectedProcess {
  /** The process name used in telemetry ("target", "target#2", "balancer", "proxy"). */
  name: string;
  port: number;
}

/** The sampling interval: 1 ms, Node's `--cpu-prof-interval` default (fine enough, cheap enough). */
export const SAMPLING_INTERVAL_US = 1000;

/** How long connecting to an inspector and a protocol call may take. */
const CALL_TIMEOUT_MS = 30_000;

/** The runtime flag that opens the inspector on `port` (same spelling for Node and Deno). */
export function inspectFlag(port: number): string {
  return `--inspect=127.0.0.1:${port}`;
}

/** One inspector session: JSON-RPC over a WebSocket, one pending call per id. */
class InspectorSession {
  #ws: WebSocket;
  #nextId = 1;
  #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (e) => this.#onMessage(String(e.data));
    ws.onclose = () => this.#failAll(new Error("inspector connection closed"));
  }

  /** Connects to the inspector on `port` (its first target, the main isolate). */
  static async open(port: number): Promise<InspectorSession> {
    const res = await fetch(`http://127.0.0.1:${port}/json/list`, {
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const list = await res.json() as Array<{ webSocketDebuggerUrl?: string }>;
    const url = list.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target listed on port ${port}`);
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("inspector WebSocket did not open")), CALL_TIMEOUT_MS);
      ws.onopen = () => (clearTimeout(timer), resolve());
      ws.onerror = () => (clearTimeout(timer), reject(new Error(`cannot open ${url}`)));
    });
    return new InspectorSession(ws);
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    // A closed WebSocket drops what is sent without an error: the process died, say so at once.
    if (this.#ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new Error(`${method}: the inspector connection is closed (the process exited?)`));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method}: no answer within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      this.#pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  #onMessage(text: string): void {
    const msg = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = msg.id === undefined ? undefined : this.#pending.get(msg.id);
    if (!waiter) return; // an event: the Profiler domain sends none we need
    this.#pending.delete(msg.id!);
    if (msg.error) waiter.reject(new Error(msg.error.message));
    else waiter.resolve(msg.result);
  }

  #failAll(err: Error): void {
    for (const waiter of this.#pending.values()) waiter.reject(err);
    this.#pending.clear();
  }

  close(): void {
    this.#ws.onclose = null;
    this.#ws.close();
    this.#failAll(new Error("inspector session closed"));
  }
}

/** A profile taken of one process, or why none could be. */
export type TakenProfile = { name: string; profile: unknown } | { name: string; error: string };

/** Profiling under way on a target's processes; `stop()` ends it and hands the profiles back. */
export interface CpuProfiling {
  /** When the profilers had started (ms since the epoch), to place the load within the profiles. */
  startedAtEpochMs: number;
  stop(): Promise<TakenProfile[]>;
}

/**
 * Starts the V8 sampling profiler in every process of `procs`. Throws TargetError when an inspector
 * cannot be reached (the sessions already opened are closed first).
 */
export async function startCpuProfiles(procs: InspectedProcess[]): Promise<CpuProfiling> {
  const sessions: Array<{ name: string; session: InspectorSession }> = [];
  try {
    for (const proc of procs) {
      const session = await InspectorSession.open(proc.port);
      sessions.push({ name: proc.name, session });
      await session.call("Profiler.enable");
      await session.call("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
      await session.call("Profiler.start");
    }
  } catch (err) {
    for (const { session } of sessions) session.close();
    throw new TargetError(
      `cannot start the CPU profiler: ${(err as Error).message}`,
      "the target's process must be node or deno started by loadlab with profile: cpu",
      { cause: err },
    );
  }
  return {
    startedAtEpochMs: Date.now(),
    stop: () =>
      Promise.all(sessions.map(async ({ name, session }): Promise<TakenProfile> => {
        try {
          const result = await session.call("Profiler.stop") as { profile: unknown };
          return { name, profile: result.profile };
        } catch (err) {
          return { name, error: (err as Error).message };
        } finally {
          session.close();
        }
      })),
  };
}
