/**
 * @module
 * Target processes, spawned without a shell, output drained to a log, stopped by SIGTERM, grace, SIGKILL. No
 * orphans: an exit registry, `LOADLAB_RUN_ID`, `setpriv --pdeathsig KILL` (main thread only), own groups.
 */
import { TargetError } from "./errors.ts";
import { findExecutable, findProgram, statOrNull } from "../system/path_lookup.ts";
import { sleepUnlessAborted, within } from "../system/sleep.ts";
import {
  groupAlive,
  inGroupOfItsOwn,
  killWatchedGroupsNow,
  signalGroup,
  unwatchGroup,
  watchGroup,
} from "./process_group.ts";

export interface SpawnOptions {
  /** Used in messages and telemetry, e.g. "external app" or "target#2". */
  name: string;
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Append stdout and stderr here; without it they are drained and only their tails kept. */
  logFile?: string;
  /** Keep stdin open: our own children exit when it closes, i.e. when loadlab dies. */
  stdinPiped?: boolean;
  /** Pin to these cores with taskset when it is installed. */
  cpuAffinity?: number[];
}

const TAIL_BYTES = 8192;
/** How long output is still read after the child exits: a grandchild may hold the pipes open for good. */
const PIPE_LINGER_MS = 250;
const STOP_POLL_MS = 50;

/** The environment variable that marks every process loadlab starts. */
export const RUN_ID_ENV = "LOADLAB_RUN_ID";
/** The mark this loadlab inherited (its parent's or a test suite's), else a new one. */
export const RUN_ID: string = inheritedRunId() ?? `${Deno.pid}-${Date.now().toString(36)}`;

function inheritedRunId(): string | undefined {
  try {
    return Deno.env.get(RUN_ID_ENV) || undefined;
  } catch { /* no env permission: a fresh id still marks the children */ }
}

const live = new Set<ManagedProcess>();
let unloadHooked = false;

function hookUnload(): void {
  if (unloadHooked) return;
  unloadHooked = true;
  globalThis.addEventListener("unload", () => {
    for (const proc of live) proc.killNow();
    killWatchedGroupsNow();
  });
}

class Tail {
  #text = "";
  push(chunk: Uint8Array): void {
    this.#text = (this.#text + new TextDecoder().decode(chunk)).slice(-TAIL_BYTES);
  }
  get text(): string {
    return this.#text;
  }
  lines(n: number): string {
    return this.#text.trimEnd().split("\n").slice(-n).join("\n");
  }
}

/** Opens a target's log for appending; a FIFO is refused, since opening it blocks the main thread. */
function openLog(name: string, path: string): Deno.FsFile {
  if (statOrNull(path)?.isFifo === true) {
    throw new TargetError(
      `${name}: log file ${path} is a FIFO`,
      "a target's output is appended to a regular file (or a device such as /dev/null); remove the FIFO or give another logFile",
    );
  }
  return Deno.openSync(path, { append: true, create: true });
}

export class ManagedProcess {
  readonly pid: number;
  readonly exited: Promise<Deno.CommandStatus>;
  status: Deno.CommandStatus | null = null;
  readonly stdoutTail = new Tail();
  readonly stderrTail = new Tail();
  /** The child's own process group (its pid), or null when it shares loadlab's. */
  readonly pgid: number | null;
  #child: Deno.ChildProcess;
  #stopping: Promise<void> | null = null;
  #lineWaiters: Array<(line: string) => void> = [];
  #stdoutPartial = "";
  #readers: ReadableStreamDefaultReader<Uint8Array>[] = [];

  private constructor(
    readonly opts: SpawnOptions,
    child: Deno.ChildProcess,
    log: Deno.FsFile | null,
    grouped: boolean,
  ) {
    this.#child = child;
    this.pid = child.pid;
    this.pgid = grouped ? child.pid : null;
    const drained = Promise.all([
      this.#drain(child.stdout.getReader(), this.stdoutTail, log, true),
      this.#drain(child.stderr.getReader(), this.stderrTail, log, false),
    ]);
    this.exited = child.status.then(async (status) => {
      this.status = status;
      if (this.pgid === null) live.delete(this);
      // Output is read to its end, but a grandchild still holding the pipes must not hold up the exit.
      await within(drained.catch(() => {}), PIPE_LINGER_MS);
      for (const reader of this.#readers) await reader.cancel().catch(() => {});
      await drained.catch(() => {});
      log?.close();
      return status;
    });
  }

  /** Spawns the process; a missing program becomes a TargetError naming it. */
  static spawn(opts: SpawnOptions): ManagedProcess {
    let command = opts.command;
    let args = opts.args ?? [];
    const taskset = opts.cpuAffinity?.length ? findProgram("taskset") : null;
    if (taskset) {
      args = ["-c", opts.cpuAffinity!.join(","), command, ...args];
      command = taskset;
    }
    // A missing program keeps failing at spawn (below, with its hint), not as a wrapper's exit code.
    const wrapped = findExecutable(opts.command, opts.cwd) ? inGroupOfItsOwn(command, args) : null;
    if (wrapped) ({ command, args } = wrapped);
    const env = { ...opts.env, [RUN_ID_ENV]: RUN_ID };
    const log = opts.logFile ? openLog(opts.name, opts.logFile) : null;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(command, {
        args,
        cwd: opts.cwd,
        env,
        stdin: opts.stdinPiped ? "piped" : "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (err) {
      log?.close();
      throw new TargetError(
        `${opts.name}: cannot start '${opts.command}': ${(err as Error).message}`,
        `check that '${opts.command}' is installed and on PATH, and that cwd exists`,
        { cause: err },
      );
    }
    const proc = new ManagedProcess(opts, child, log, wrapped?.grouped ?? false);
    if (wrapped?.grouped) watchGroup(child.pid, { [RUN_ID_ENV]: RUN_ID });
    live.add(proc);
    hookUnload();
    return proc;
  }

  async #drain(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    tail: Tail,
    log: Deno.FsFile | null,
    isStdout: boolean,
  ) {
    this.#readers.push(reader);
    for (;;) {
      const { value: chunk, done } = await reader.read();
      if (done) return;
      tail.push(chunk);
      if (log) await log.write(chunk).catch(() => {});
      if (isStdout && this.#lineWaiters.length) this.#feedLines(new TextDecoder().decode(chunk));
    }
  }

  #feedLines(text: string): void {
    const parts = (this.#stdoutPartial + text).split("\n");
    this.#stdoutPartial = parts.pop()!;
    for (const line of parts) for (const waiter of this.#lineWaiters) waiter(line);
  }

  /** The first stdout line starting with `prefix`; rejects if the process exits or time runs out. */
  async waitForStdoutLine(prefix: string, timeoutMs: number): Promise<string> {
    let onLine = (_line: string) => {};
    const found = new Promise<string>((resolve, reject) => {
      onLine = (line) => void (line.startsWith(prefix) && resolve(line.slice(prefix.length)));
      this.exited.then(() => reject(this.exitedEarlyError()));
    });
    this.#lineWaiters.push(onLine);
    try {
      const line = await within(found, timeoutMs);
      if (line === undefined) throw this.notReadyError(`not ready after ${timeoutMs} ms`);
      return line;
    } finally {
      this.#lineWaiters = this.#lineWaiters.filter((w) => w !== onLine);
    }
  }

  /** "exited with code N" plus the last lines of stderr (or stdout when stderr is empty). */
  exitedEarlyError(): TargetError {
    const code = this.status?.signal ? `signal ${this.status.signal}` : `code ${this.status?.code}`;
    return this.notReadyError(`exited with ${code} before it was ready`);
  }

  notReadyError(what: string): TargetError {
    const tail = this.stderrTail.lines(10) || this.stdoutTail.lines(10);
    const shown = tail ? `\n--- last output of ${this.opts.name} ---\n${tail}` : " (no output)";
    const logHint = this.opts.logFile ? `; full log: ${this.opts.logFile}` : "";
    return new TargetError(
      `${this.opts.name} (${[this.opts.command, ...this.opts.args ?? []].join(" ")}) ${what}${shown}`,
      `run the command by hand to see why it fails or is slow to start${logHint}`,
    );
  }

  /** SIGTERM, up to `graceMs` to exit, then SIGKILL. Safe to call many times. */
  stop(graceMs = 3000): Promise<void> {
    return this.#stopping ??= this.#stop(graceMs);
  }

  async #stop(graceMs: number): Promise<void> {
    if (this.#gone()) return this.#forget();
    this.#signal("SIGTERM");
    const deadline = Date.now() + graceMs;
    let killed = false;
    while (!this.#gone()) {
      if (!killed && Date.now() >= deadline) {
        this.#signal("SIGKILL");
        killed = true;
      } else if (killed && Date.now() >= deadline + graceMs) break; // unkillable (D state): give up
      // Exited with its group still alive: the promise is settled, so only the pause is waited for.
      await (this.status ? sleepUnlessAborted(STOP_POLL_MS) : within(this.exited, STOP_POLL_MS));
    }
    await this.exited;
    this.#forget();
  }

  /** The child has exited and, when it has a group of its own, so has everything else in it. */
  #gone(): boolean {
    return this.status !== null && (this.pgid === null || !groupAlive(this.pgid));
  }

  #forget(): void {
    live.delete(this);
    if (this.pgid !== null) unwatchGroup(this.pgid);
  }

  killNow(): void {
    if (!this.#gone()) this.#signal("SIGKILL");
  }

  /** To the whole group when the child has one (the leader may be gone while the rest lives on). */
  #signal(signal: Deno.Signal): void {
    if (this.pgid !== null && signalGroup(this.pgid, signal)) return;
    try {
      this.#child.kill(signal);
    } catch { /* already gone */ }
  }
}

/** Polls `check` every 100 ms until true; rejects when the process exits first or `timeoutMs` passes. */
export async function pollReady(proc: ManagedProcess, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = !proc.status && Date.now() < deadline && await check().catch(() => false);
    if (proc.status) throw proc.exitedEarlyError();
    if (ready) return;
    if (Date.now() >= deadline) throw proc.notReadyError(`was not ready after ${timeoutMs} ms`);
    await within(proc.exited, 100);
  }
}
