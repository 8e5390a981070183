/**
 * @module
 * k6's `k6/experimental/fs`: `open(path)` in init code reads the file once, as `open()` does; each VU reads
 * and seeks it at its own offset, as each k6 VU opened its own `File` in its init code.
 */
// deno-lint-ignore-file require-await -- k6's calls answer promises; a throw in them is a rejection
import { basename, resolve } from "node:path";
import { folderOf, open as openFile } from "./init_files.ts";
import { current } from "./runtime.ts";

/** `seek`'s `whence`, as k6 numbers it. */
export const SeekMode = Object.freeze({ Start: 0, Current: 1, End: 2 });

/** A file `open` read, at an offset of each VU's own (the init code's and the hooks' one offset). */
export class File {
  readonly #offsets = new WeakMap<object, number>();
  readonly #data: Uint8Array;

  constructor(readonly path: string, data: Uint8Array) {
    this.#data = data;
  }

  /** Its bytes whole (`whole`), else from the reader's offset on, the offset then at the end. */
  static rest(file: File, whole = false): Uint8Array {
    if (whole) return file.#data;
    const reader = current()?.vu ?? file, at = file.#offsets.get(reader) ?? 0;
    file.#offsets.set(reader, file.#data.length);
    return file.#data.subarray(at);
  }

  /** The file's base name and size in bytes. */
  async stat(): Promise<{ name: string; size: number }> {
    return { name: basename(this.path), size: this.#data.length };
  }

  /** Reads into `into` from the offset: the bytes read, or null at the end of the file. */
  async read(into: Uint8Array): Promise<number | null> {
    if (!(into instanceof Uint8Array)) {
      throw new TypeError("read() failed; reason: into must be a Uint8Array");
    }
    const reader = current()?.vu ?? this, at = this.#offsets.get(reader) ?? 0;
    const part = this.#data.subarray(at, at + into.length);
    into.set(part), this.#offsets.set(reader, at + part.length);
    return part.length === 0 ? null : part.length;
  }

  /** Moves the offset as k6 does (`End` counts from the last byte) and gives the new one. */
  async seek(offset: number, whence: number = SeekMode.Start): Promise<number> {
    const reader = current()?.vu ?? this, size = this.#data.length, { Start, End } = SeekMode;
    const from = whence === Start ? 0 : whence === End ? size - 1 : this.#offsets.get(reader) ?? 0;
    const to = Math.trunc(offset) + from;
    if (typeof offset !== "number" || ![0, 1, 2].includes(whence)) {
      throw new TypeError("seek() failed; reason: offset is a number and whence a SeekMode");
    }
    if ((whence === Start && offset < 0) || (whence === End && offset > 0) || !(to >= 0 && to <= size)) {
      throw new TypeError(`seek() failed; reason: offset ${offset} from ${from} is outside the file`);
    }
    this.#offsets.set(reader, to);
    return to;
  }
}

/** k6's `open`: in init code only, a regular file beside the script (as `open()`: init_files.ts). */
export async function open(path: string): Promise<File> {
  const given = String(path).replace(/^file:\/\//, "");
  return new File(resolve(folderOf(), given), new Uint8Array(openFile(given, "b") as ArrayBuffer));
}

export default { open, SeekMode };
