/**
 * @module
 * File descriptors held in reserve so the results' writes succeed after the process runs out (EMFILE):
 * freed just before a write, taken again after; several, as a write may first load a module (opens too).
 */

/** `/dev/null` where it exists: opening it costs nothing and touches no file. */
const PLACEHOLDER = Deno.build.os === "windows" ? "NUL" : "/dev/null";
const RESERVED = 8;

export class DescriptorReserve {
  #held: Deno.FsFile[] = [];

  constructor() {
    this.#take();
  }

  /** Runs `write` with the reserved descriptors free, then takes them again. */
  async around<T>(write: () => Promise<T>): Promise<T> {
    this.close();
    try {
      return await write();
    } finally {
      this.#take();
    }
  }

  close(): void {
    for (const file of this.#held.splice(0)) file.close();
  }

  #take(): void {
    try {
      while (this.#held.length < RESERVED) this.#held.push(Deno.openSync(PLACEHOLDER));
    } catch {
      // Out of descriptors already, or no such device: writes go without a reserve.
    }
  }
}
