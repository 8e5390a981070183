/**
 * @module
 * One file descriptor held in reserve for writes that must not fail when the process has run out of
 * them (EMFILE): files a session script leaked, sockets of a load worker that was ended while stuck.
 * Taken before the load; released just before a write, whose open then finds it free, and taken again
 * after. It covers writes that open one file at a time, as the results' atomic writes do.
 */

/** `/dev/null` where it exists: opening it costs nothing and touches no file. */
const PLACEHOLDER = Deno.build.os === "windows" ? "NUL" : "/dev/null";

/** A descriptor kept open until `close()`, lent to each `around(write)`. */
export class DescriptorReserve {
  #held: Deno.FsFile | null = null;

  constructor() {
    this.#take();
  }

  /** Runs `write` with the reserved descriptor free, then takes it again. */
  async around<T>(write: () => Promise<T>): Promise<T> {
    this.#held?.close();
    this.#held = null;
    try {
      return await write();
    } finally {
      this.#take();
    }
  }

  /** Gives the descriptor back for good (later writes go without a reserve). */
  close(): void {
    this.#held?.close();
    this.#held = null;
  }

  #take(): void {
    try {
      this.#held ??= Deno.openSync(PLACEHOLDER);
    } catch {
      // Out of descriptors already, or no such device: writes go without a reserve.
    }
  }
}
