/**
 * @module
 * k6's `open()` for converted scripts, and the script's folder it (and gRPC's `client.load`) reads
 * relative paths from. As under k6, a file is opened in the script's init code (its top level, a
 * SharedArray's function) only: once the module's top level has run (the runtime's footer ends it), an
 * `open()` in an iteration, setup or teardown is refused at its line, as k6 refuses it. It read the file
 * again each iteration, synchronously, holding every VU of its worker, and a 200 MB file read so had the
 * run cut at once as 'a session script that keeps what each iteration makes', nothing measured.
 */
import { isAbsolute, join } from "node:path";
import { FileReadError, readFileCapped } from "../../../system/read_capped.ts";

let folder = ".";
let initOver = false;

/** Sets the folder `open()` reads relative paths from: the k6 script's own (the converted header's). */
export function setScriptFolder(dir: string): void {
  folder = dir;
}

/** The k6 script's own folder (where `open()` and gRPC's `client.load` read relative paths from). */
export function folderOf(): string {
  return folder;
}

/** The script's init code is over (its module's top level ran): `open()` is refused from now on. */
export function endInit(): void {
  initOver = true;
}

/** The largest file `open()` reads: each worker holds its own copy (a V8 string is at most ~512 MiB). */
export const MAX_OPEN_BYTES = 256 * 2 ** 20;

/**
 * k6's `open(path, "b"?)`: a file's text, or its bytes as an ArrayBuffer with `"b"`. Only in the init
 * code, and only a regular file of at most MAX_OPEN_BYTES: a device (`/dev/zero`) or a FIFO would be read
 * forever (the script's check waited a minute for it), a folder or a missing file is named with why.
 */
export function open(path: string, mode?: string): string | ArrayBuffer {
  if (initOver) {
    throw new TypeError(
      `open(${JSON.stringify(String(path).slice(0, 200))}) after the script's init code: as k6, a file is ` +
        "opened at the script's top level (or in a SharedArray's function), once, and its contents kept " +
        "in a variable the iterations read",
    );
  }
  const full = isAbsolute(String(path)) ? String(path) : join(folder, String(path));
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = readFileCapped(full, MAX_OPEN_BYTES);
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    throw new TypeError(`open(${JSON.stringify(path)}): ${full} ${err.reason}`, { cause: err });
  }
  if (mode === "b") return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new TextDecoder().decode(bytes);
}
