/**
 * @module
 * k6's `open()`, and the script's folder it and gRPC's `client.load` read relative paths from. As in k6,
 * files open (and metrics are made, metrics.ts) in init code only; after it, `open()` throws at its line.
 */
import { isAbsolute, join } from "node:path";
import { FileReadError, readFileCapped } from "../../../system/read_capped.ts";

let folder = ".";
let initOver = false;

export function setScriptFolder(dir: string): void {
  folder = dir;
}

/** A local module's `open()`, reading relative paths from its own folder `dir`, as k6's. */
export const openIn = (dir: string) => (path: string, mode?: string) => open(path, mode, dir);

export const folderOf = (): string => folder;

/** Ends the init code (`over` false: opens it again, while a VU's own instance of the script loads). */
export function endInit(over = true): void {
  initOver = over;
}

/** Whether the script's init code (its top level) is still running. */
export const inInit = (): boolean => !initOver;

/** The largest file `open()` reads: each worker holds its own copy (a V8 string is at most ~512 MiB). */
export const MAX_OPEN_BYTES = 256 * 2 ** 20;

/** k6's `open(path, "b"?)`: in init code only, a regular file, relative to `dir`; a byte-order mark kept. */
export function open(path: string, mode?: string, dir = folder): string | ArrayBuffer {
  if (initOver) {
    throw new TypeError(
      `open(${JSON.stringify(String(path).slice(0, 200))}) after the script's init code: as k6, a file is ` +
        "opened at the script's top level (or in a SharedArray's function), once, and its contents kept " +
        "in a variable the iterations read",
    );
  }
  const full = isAbsolute(String(path)) ? String(path) : join(dir, String(path));
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = readFileCapped(full, MAX_OPEN_BYTES);
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    throw new TypeError(`open(${JSON.stringify(path)}): ${full} ${err.reason}`, { cause: err });
  }
  if (mode === "b") return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/** A `require()` the converter leaves in a function: k6's runs in its init stage only, loadlab's never. */
export function requireUnconverted(specifier: string): never {
  throw new Error(`require(${JSON.stringify(specifier)}) in a function: k6 runs it in init code only`);
}
