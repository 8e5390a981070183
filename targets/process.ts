/**
 * @module
 * Child processes the targets consist of (external apps, built-in target instances, the balancer, the
 * proxy, redis-server). Spawned without a shell, arguments as an array; stdout and stderr are drained
 * into a log file (or dropped) so a chatty app never blocks on a full pipe, while the last few KiB of
 * each are kept for error messages. Stopping is SIGTERM, a grace period, then SIGKILL, and idempotent.
 * A process-wide registry SIGKILLs whatever is still alive when loadlab exits, so an error path that
 * forgets `stop()` still leaves no orphan behind.
 *
 * Two guards for when loadlab cannot clean up (SIGKILL, a crash): every child carries `LOADLAB_RUN_ID`
 * in its environment (inherited from loadlab's own environment when set, so a test suite or a parent
 * loadlab marks a whole tree; a scan of /proc/<pid>/environ then finds anything left), and on Linux every
 * child is started through `setpriv --pdeathsig KILL` (util-linux), so the kernel kills it the moment its
 * parent dies. setpriv execs the program, so the pid stays the program's; a child of our own Deno
 * target also watches its stdin, but redis-server and external apps cannot, and this is what ends
 * them. The death signal follows the spawning thread: children are spawned from the main thread only.
 */
import { TargetError } from "./errors.ts";
import { findProgram } from "./path_lookup.ts";

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

/** The environment variable that marks every process loadlab starts. */
export const RUN_ID_ENV = "LOADLAB_RUN_ID";
/** This loadlab's mark: the one it inherited (its parent's or a test suite's), else a new one. */
export const RUN_ID: string = inheritedRunId() ?? `${Deno.pid}-${Date.now().toString(36)}`;

function inheritedRunId(): string | undefined {
  try {
    return Deno.env.get(RUN_ID_ENV) || undefined;
  } catch { /* no env permission: a fresh id still marks the children */ }
}

/** `setpriv` when it can set a parent-death signal (Linux with util-linux), looked up once. */
let setpriv: string | null | undefined;
function parentDeathWrapper(): string | null {
  setpriv ??= Deno.build.os === "linux" ? findProgram("setpriv") : null;
  return setpriv;
}
const live = new Set<ManagedProcess>();
let unloadHooked = false;

function hookUnload(): void {
  if (unloadHooked) return;
  unloadHooked = true;
  globalThis.addEventListener("unload", () => {
    for (const proc of live) proc.killNow();
  });
}

/** Keeps the last TAIL_BYTES of a stream as text. */
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

export class ManagedProcess {
  readonly pid: number;
  readonly exited: Promise<Deno.CommandStatus>;
  status: Deno.CommandStatus | null = null;
  readonly stdoutTail = new Tail();
  readonly stderrTail = new Tail();
  #child: Deno.ChildProcess;
  #stopping: Promise<void> | null = null;
  #lineWaiters: Array<(line: string) => void> = [];
  #stdoutPartial = "";

  private constructor(readonly opts: SpawnOptions, child: Deno.ChildProcess, log: Deno.FsFile | null) {
    this.#child = child;
    this.pid = child.pid;
    const drained = Promise.all([
      this.#drain(child.stdout, this.stdoutTail, log, true),
      this.#drain(child.stderr, this.stderrTail, log, false),
    ]);
    this.exited = child.status.then(async (status) => {
      this.status = status;
      live.delete(this);
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
    const wrapper = parentDeathWrapper();
    if (wrapper && findExecutable(opts.command, opts.cwd)) {
      // A missing program keeps failing at spawn (below, with its hint), not as setpriv's exit code.
      args = ["--pdeathsig", "KILL", "--", command, ...args];
      command = wrapper;
    }
    const log = opts.logFile ? Deno.openSync(opts.logFile, { append: true, create: true }) : null;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(command, {
        args,
        cwd: opts.cwd,
        env: { ...opts.env, [RUN_ID_ENV]: RUN_ID },
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
    const proc = new ManagedProcess(opts, child, log);
    live.add(proc);
    hookUnload();
    return proc;
  }

  async #drain(stream: ReadableStream<Uint8Array>, tail: Tail, log: Deno.FsFile | null, isStdout: boolean) {
    for await (const chunk of stream) {
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
  waitForStdoutLine(prefix: string, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(() => reject(this.notReadyError(`not ready after ${timeoutMs} ms`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.#lineWaiters = this.#lineWaiters.filter((w) => w !== onLine);
        settle();
      };
      const onLine = (line: string) => {
        if (line.startsWith(prefix)) finish(() => resolve(line.slice(prefix.length)));
      };
      this.#lineWaiters.push(onLine);
      this.exited.then(() => finish(() => reject(this.exitedEarlyError())));
    });
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
    this.#stopping ??= this.#stop(graceMs);
    return this.#stopping;
  }

  async #stop(graceMs: number): Promise<void> {
    if (this.status) return;
    this.#signal("SIGTERM");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((r) => timer = setTimeout(() => r(true), graceMs)),
    ]);
    clearTimeout(timer);
    if (timedOut) this.#signal("SIGKILL");
    await this.exited;
  }

  /** Synchronous SIGKILL for the exit hook. */
  killNow(): void {
    if (!this.status) this.#signal("SIGKILL");
  }

  #signal(signal: Deno.Signal): void {
    try {
      this.#child.kill(signal);
    } catch { /* already gone */ }
  }
}

/** True when `command` names an existing file: on PATH when it has no slash, else relative to `cwd`. */
function findExecutable(command: string, cwd?: string): boolean {
  if (!command.includes("/")) return findProgram(command) !== null;
  const path = command.startsWith("/") || !cwd ? command : `${cwd}/${command}`;
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * Polls `check` every 100 ms until it resolves true. Rejects with the exit code and output tail when
 * the process exits first, or stops it and rejects when `timeoutMs` passes.
 */
export async function pollReady(
  proc: ManagedProcess,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.status) throw proc.exitedEarlyError();
    if (await check().catch(() => false)) {
      if (proc.status) throw proc.exitedEarlyError();
      return;
    }
    await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 100))]);
  }
  if (proc.status) throw proc.exitedEarlyError();
  const err = proc.notReadyError(`was not ready after ${timeoutMs} ms`);
  await proc.stop();
  throw err;
}
