/**
 * @module
 * CPU profiles of a target's Node and Deno processes through the V8 inspector, started and stopped around
 * each run, so a profile covers that run and needs no clean exit (unlike `--cpu-prof`). The session speaks
 * ws/'s codec, since Deno's WebSocket refuses a message over 64 MiB and a profile comes in one.
 */
import { TargetError } from "./errors.ts";
import { treeCpu } from "../system/proc_stat.ts";
import { writeAll } from "../system/write_all.ts";
import { withTimeout } from "../system/sleep.ts";
import { handshakeRequest, newKey } from "../ws/handshake.ts";
import { readHandshake } from "../ws/handshake_answer.ts";
import { FrameParser } from "../ws/frame_parser.ts";
import { MaskKeys, MessageTemplate, pongFrame } from "../ws/frame_encoder.ts";
import { OP_TEXT } from "../ws/opcodes.ts";
import { closeQuietly } from "../system/descriptors.ts";

/** A process of a running target with an inspector listening on loopback. */
export interface InspectedProcess {
  name: string;
  port: number;
  /** The inspector on `port` must answer for this pid: another process may hold the port. */
  pid: number;
}

/** Which runtime a profiled process runs: Deno counts its Rust side's work (HTTP serving) as idle. */
type ProfiledRuntime = "node" | "deno";

/** The sampling interval: 1 ms, Node's `--cpu-prof-interval` default (fine enough, cheap enough). */
const SAMPLING_INTERVAL_US = 1000;

const CALL_TIMEOUT_MS = 30_000;

/** The flag that opens the inspector on `port` (one spelling for Node and Deno). */
export function inspectFlag(port: number): string {
  return `--inspect=127.0.0.1:${port}`;
}

/** A profiled process's children: count at the end, CPU seconds meanwhile (node:cluster hands work on). */
type ChildrenCpu = { count: number; cpuSec: number };

/** A profile of one process (with its children's CPU meanwhile), or why none could be taken. */
export type TakenProfile =
  | { name: string; profile: unknown; runtime: ProfiledRuntime; children: ChildrenCpu | null }
  | { name: string; error: string };

/** Evaluated in the inspected process (Deno 2 has a `process` global too). */
const IDENTITY_EXPRESSION =
  `[globalThis.process?.pid ?? globalThis.Deno?.pid, globalThis.Deno ? "deno" : "node"]`;

/** The runtime of the process behind `session`, or why it is not `proc`. */
async function identify(
  session: InspectorSession,
  proc: InspectedProcess,
): Promise<ProfiledRuntime | string> {
  const answer = await session.call("Runtime.evaluate", {
    expression: IDENTITY_EXPRESSION,
    returnByValue: true,
  }) as { result?: { value?: unknown } };
  const value = answer.result?.value;
  const [pid, runtime] = Array.isArray(value) ? value : [];
  const where = `the inspector on 127.0.0.1:${proc.port}`;
  if (typeof pid !== "number" || (runtime !== "node" && runtime !== "deno")) {
    return `${where} did not say which process it belongs to: not profiled (a profile of another process ` +
      `would be read as the target's)`;
  }
  if (pid !== proc.pid) {
    return `${where} belongs to process ${pid}, not to the target's process ${proc.pid} (another process ` +
      `took the port before the target bound it): not profiled`;
  }
  return runtime;
}

/** Profiling under way on a target's processes; `stop()` ends it and hands the profiles back. */
export type CpuProfiling = Awaited<ReturnType<typeof startCpuProfiles>>;

interface Entry {
  proc: InspectedProcess;
  session: InspectorSession;
  runtime: ProfiledRuntime | null;
  refused: string;
  atStart: ReturnType<typeof treeCpu>;
}

/**
 * Starts the V8 sampling profiler in every process of `procs`; throws TargetError when an inspector
 * cannot be reached. A process whose port another process holds gets that reason instead of a profile.
 */
export async function startCpuProfiles(
  procs: InspectedProcess[],
  maxMessageBytes = MAX_INSPECTOR_MESSAGE_BYTES,
) {
  const entries: Entry[] = [];
  try {
    for (const proc of procs) {
      const session = await InspectorSession.open(proc.port, maxMessageBytes);
      const entry: Entry = { proc, session, runtime: null, refused: "", atStart: null };
      entries.push(entry);
      const runtime = await identify(entry.session, proc);
      if (runtime !== "node" && runtime !== "deno") {
        entry.session.close();
        entry.refused = runtime;
        continue;
      }
      entry.runtime = runtime;
      await entry.session.call("Profiler.enable");
      await entry.session.call("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
      await entry.session.call("Profiler.start");
      entry.atStart = treeCpu(proc.pid);
    }
  } catch (err) {
    for (const { session } of entries) session.close();
    throw new TargetError(
      `cannot start the CPU profiler: ${(err as Error).message}`,
      "the target's process must be node or deno started by loadlab with profile: cpu",
      { cause: err },
    );
  }
  // The start in ms since the epoch places the load within the profiles.
  return { startedAtEpochMs: Date.now(), stop: () => Promise.all(entries.map(stopOne)) };
}

async function stopOne({ proc, session, runtime, refused, atStart }: Entry): Promise<TakenProfile> {
  const name = proc.name;
  if (runtime === null) return { name, error: refused };
  const atEnd = treeCpu(proc.pid);
  const children = atEnd === null || atStart === null
    ? null
    : { count: atEnd.count, cpuSec: Math.max(0, atEnd.childrenSec - atStart.childrenSec) };
  try {
    const result = await session.call("Profiler.stop") as { profile: unknown };
    return { name, profile: result.profile, runtime, children };
  } catch (err) {
    return { name, error: (err as Error).message };
  } finally {
    session.close();
  }
}

/** The largest inspector message read by default (a profile, as JSON text). */
const MAX_INSPECTOR_MESSAGE_BYTES = 256 * 1024 * 1024;

const READ_BYTES = 64 * 1024;
/** One more than readHandshake takes of an answer's head, so a longer one is its failure. */
const HANDSHAKE_BYTES = 16 * 1024 + 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One inspector session: JSON-RPC over its own WebSocket; when it closes, pending calls fail with why. */
export class InspectorSession {
  #open = true;
  #writing: Promise<void> = Promise.resolve();
  readonly #keys = new MaskKeys();
  #nextId = 1;
  #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  /** `early`: what was read past the upgrade answer's head. */
  private constructor(readonly conn: Deno.Conn, readonly maxMessageBytes: number, early: Uint8Array) {
    this.#read(early).catch((err) => this.#end(`inspector connection failed: ${(err as Error).message}`));
  }

  /** Connects to the inspector's first target (the main isolate). */
  static async open(port: number, maxMessageBytes: number): Promise<InspectorSession> {
    const res = await fetch(`http://127.0.0.1:${port}/json/list`, {
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const list = await res.json() as Array<{ webSocketDebuggerUrl?: string }>;
    const url = list.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target listed on port ${port}`);
    return InspectorSession.connect(url, CALL_TIMEOUT_MS, maxMessageBytes);
  }

  /** Opens `url` (a `webSocketDebuggerUrl`) within `timeoutMs`. */
  static async connect(url: string, timeoutMs: number, maxMessageBytes: number): Promise<InspectorSession> {
    const { hostname, port } = new URL(url);
    const conn = await Deno.connect({ hostname, port: Number(port), signal: AbortSignal.timeout(timeoutMs) });
    const timer = setTimeout(() => conn.close(), timeoutMs);
    try {
      const key = newKey();
      await writeAll(conn, handshakeRequest(new URL(url), key));
      const buf = new Uint8Array(HANDSHAKE_BYTES);
      for (let have = 0;;) {
        const n = await conn.read(buf.subarray(have));
        if (n === null) throw new Error("the inspector closed the connection during the WebSocket upgrade");
        const answer = readHandshake(buf, have + n, key, [], have);
        have += n;
        if (answer.kind === "ok") {
          return new InspectorSession(conn, maxMessageBytes, buf.slice(answer.headBytes, have));
        }
        if (answer.kind === "failed") {
          throw new Error(`${url} did not accept the WebSocket upgrade: ${answer.message}`);
        }
      }
    } catch (err) {
      closeQuietly(conn);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    // Nothing sent on a closed connection is answered: the process died.
    if (!this.#open) {
      return Promise.reject(new Error(`${method}: the inspector connection is closed (the process exited?)`));
    }
    const id = this.#nextId++;
    const answer = new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    const text = JSON.stringify({ id, method, params });
    this.#write(new MessageTemplate(OP_TEXT, encoder.encode(text)).mask(this.#keys));
    return withTimeout(answer, CALL_TIMEOUT_MS, `${method}: no answer within ${CALL_TIMEOUT_MS} ms`)
      .finally(() => this.#pending.delete(id));
  }

  close(): void {
    this.#end("inspector session closed");
  }

  #onMessage(text: string): void {
    const msg = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = msg.id === undefined ? undefined : this.#pending.get(msg.id);
    if (!waiter) return; // an event: the Profiler domain sends none we need
    this.#pending.delete(msg.id!);
    if (msg.error) waiter.reject(new Error(msg.error.message));
    else waiter.resolve(msg.result);
  }

  /** Ends the connection and fails every pending call with `reason`. */
  #end(reason: string): void {
    if (!this.#open) return;
    this.#open = false;
    closeQuietly(this.conn);
    for (const waiter of this.#pending.values()) waiter.reject(new Error(reason));
    this.#pending.clear();
  }

  async #read(early: Uint8Array): Promise<void> {
    const parser = new FrameParser({
      onMessage: (_text, buf, start, end) => this.#onMessage(decoder.decode(buf.subarray(start, end))),
      onPing: (buf, start, end) => this.#write(pongFrame(buf.subarray(start, end), this.#keys)),
      onPong: () => {},
      onClose: () => {},
    }, this.maxMessageBytes);
    const chunk = new Uint8Array(READ_BYTES);
    let [buf, have] = [early, early.length];
    while (this.#open) {
      if (!parser.feed(buf, 0, have)) {
        const tooBig = parser.fault === "too-big";
        return this.#end(tooBig ? tooLarge(this.maxMessageBytes) : `inspector sent ${parser.faultMessage}`);
      }
      if (parser.closed) return this.#end("inspector connection closed");
      const n = await this.conn.read(chunk);
      if (n === null) return this.#end("inspector connection closed (the process exited?)");
      [buf, have] = [chunk, n];
    }
  }

  #write(frame: Uint8Array): void {
    this.#writing = this.#writing.then(() => writeAll(this.conn, frame)).catch(() => {});
  }
}

function tooLarge(maxMessageBytes: number): string {
  const mib = maxMessageBytes / 1024 / 1024;
  return `the profile is larger than the ${mib} MiB loadlab reads of one inspector message ` +
    "(inspector connection closed); profile a shorter run";
}
