/**
 * @module
 * The optional raw request log: a CSV line `code;startUs;endUs;connection` per response (as Gocannon), in
 * 64 KiB O_APPEND writes so workers share one file; µs from t0, `startUs` the intended send.
 */
import { writeAll } from "../../system/write_all.ts";
import { OutputError, withWriteFix } from "../../system/output_file.ts";
import { fileStem } from "../../validation/shown_name.ts";
import { writeInt } from "../http/template.ts";

const FLUSH_AT_BYTES = 60 * 1024;
const BUFFER_BYTES = 64 * 1024;

export class RequestLog {
  readonly #buf = new Uint8Array(BUFFER_BYTES);
  #length = 0;
  #pending: Promise<unknown> = Promise.resolve();
  #failed: unknown = null;

  private constructor(readonly file: Deno.FsFile, readonly originMs: number, readonly fromSend: boolean) {}

  /** Opens `path` to append to (`createLogFile` writes the header); `fromSend`: starts are actual sends. */
  static async open(path: string, originMs: number, fromSend = false): Promise<RequestLog> {
    const file = await Deno.open(path, { append: true, create: true });
    return new RequestLog(file, originMs, fromSend);
  }

  write(status: number, intendedMs: number, sentMs: number, endMs: number, connectionId: number): void {
    if (intendedMs < this.originMs) return; // warm-up is not part of the measured run
    const startMs = this.fromSend ? sentMs : intendedMs;
    if (this.#length > FLUSH_AT_BYTES) this.#flush();
    this.#int(status);
    this.#byte(59);
    this.#int(Math.round((startMs - this.originMs) * 1000));
    this.#byte(59);
    this.#int(Math.round((endMs - this.originMs) * 1000));
    this.#byte(59);
    this.#int(connectionId);
    this.#byte(10);
  }

  /** A call that got no answer (a deadline, no connection): a line of code 0 when it serves ghz's report. */
  unanswered(intendedMs: number, sentMs: number, endMs: number, connectionId: number): void {
    if (this.fromSend) this.write(0, intendedMs, sentMs, endMs, connectionId);
  }

  /** Writes what is buffered and closes; throws if any write failed (the log would be incomplete). */
  async close(): Promise<void> {
    this.#flush();
    await this.#pending;
    this.file.close();
    if (this.#failed) throw new Error(`request log: ${String(this.#failed)}`, { cause: this.#failed });
  }

  #byte(b: number): void {
    this.#buf[this.#length++] = b;
  }

  #int(n: number): void {
    this.#length = writeInt(this.#buf, this.#length, n);
  }

  #flush(): void {
    if (this.#length === 0) return;
    const chunk = this.#buf.slice(0, this.#length);
    this.#length = 0;
    this.#pending = this.#pending.then(() => writeAll(this.file, chunk)).catch((e) => this.#failed ??= e);
  }
}

/** Creates (truncates) the log file with its header line before the workers append to it. */
export async function createLogFile(path: string): Promise<void> {
  await Deno.writeTextFile(path, "code;startUs;endUs;connection\n");
}

/** A run name that stays itself with `/` and `#` turned into `_` (no `_` of its own, plain characters). */
const PLAIN_RUN_NAME = /^[A-Za-z0-9.-]+\/[A-Za-z0-9.-]+(\/[A-Za-z0-9.-]+=[A-Za-z0-9.-]+){0,2}(#\d+)?$/;

/** `<outDir>/requests/<name>.csv` for `log: true`; a name not plain is hashed too (`a_b` vs `a/b`). */
export function requestLogPath(outDir: string, runName: string): string {
  return `${outDir}/requests/${fileStem(runName, PLAIN_RUN_NAME.test(runName))}.csv`;
}

/** A failed request log write (a full disk) as an `OutputError` naming the log, or null for others. */
export function requestLogError(err: unknown, logFile: string): OutputError | null {
  const text = err instanceof Error ? err.message : String(err);
  const inWorker = /request log: (?:\w*Error: )?(.*)$/s.exec(text);
  const atOpen = text.includes(`'${logFile}'`) ? /^(.*\(os error \d+\))/s.exec(text) : null;
  const reason = (inWorker ?? atOpen)?.[1];
  return reason ? new OutputError(withWriteFix(`cannot write ${logFile}: ${reason}`), { cause: err }) : null;
}
