/**
 * @module
 * One file descriptor held in reserve so the results' writes succeed after the process runs out (EMFILE):
 * released just before a write, whose open then finds it free, and taken again after.
 */

/** `/dev/null` where it exists: opening it costs nothing and touches no file. */
const PLACEHOLDER = Deno.build.os === "windows" ? "NUL" : "/dev/null";

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
