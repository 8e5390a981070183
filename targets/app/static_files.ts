/**
 * @module
 * Files behind `/static/*`: the sample site shipped with loadlab (read once) or a directory the user names
 * (read per request, so edits show at once). Paths may not climb out, by `..` or by a symlink.
 */

type StaticFile = { bytes: Uint8Array<ArrayBuffer>; contentType: string };

const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  json: "application/json",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  txt: "text/plain; charset=utf-8",
  ico: "image/x-icon",
};

/** MIME type from the file extension; unknown ones are sent as bytes. */
export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return CONTENT_TYPES[path.slice(dot + 1).toLowerCase()] ?? "application/octet-stream";
}

/** `a/./b/../c` -> `a/c`; null when the path tries to leave the root, is empty or is not decodable. */
export function normalizeRelPath(path: string): string | null {
  const decoded = decodedPath(path);
  if (decoded === null) return null;
  const parts: string[] = [];
  for (const part of decoded.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else if (part.includes("\\") || part.includes("\0")) return null;
    else parts.push(part);
  }
  return parts.length ? parts.join("/") : null;
}

/** The path with `%xx` decoded; null for a broken escape (`/%ZZ`, `/%E0%A4%A`), which names no file. */
export function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

export type StaticStore = (relPath: string) => Promise<StaticFile | undefined>;

/** The sample site beside this file; `deno compile --include targets/app/assets` puts it in the binary. */
const SAMPLE_SITE = new URL("./assets/", import.meta.url);

export function createStaticStore(dir?: string): StaticStore {
  if (dir) return (rel) => readFromDir(dir, rel);
  const files = new Map<string, StaticFile>();
  const readAll = (folder: URL, prefix: string) => {
    for (const entry of Deno.readDirSync(folder)) {
      if (entry.isDirectory) readAll(new URL(`${entry.name}/`, folder), `${prefix}${entry.name}/`);
      else {
        const bytes = Deno.readFileSync(new URL(entry.name, folder));
        files.set(prefix + entry.name, { bytes, contentType: contentTypeOf(entry.name) });
      }
    }
  };
  readAll(SAMPLE_SITE, "");
  return (rel) => {
    const clean = cleanPath(rel);
    return Promise.resolve(clean === null ? undefined : files.get(clean));
  };
}

/** Like `normalizeRelPath`, with a directory (or the root) meaning its `index.html`. */
function cleanPath(rel: string): string | null {
  return normalizeRelPath(rel === "" || rel.endsWith("/") ? `${rel}index.html` : rel);
}

/** A regular file of `dir` whose resolved path stays under it (no symlink out, no FIFO), read there. */
async function readFromDir(dir: string, rel: string): Promise<StaticFile | undefined> {
  const clean = cleanPath(rel);
  if (clean === null) return undefined;
  try {
    const root = await Deno.realPath(dir);
    const real = await Deno.realPath(`${dir}/${clean}`);
    if (!isUnder(real, root) || !(await Deno.stat(real)).isFile) return undefined;
    return { bytes: await Deno.readFile(real), contentType: contentTypeOf(clean) };
  } catch (err) {
    if (NOT_SERVED.some((kind) => err instanceof kind)) return undefined;
    throw err;
  }
}

/** Errors that mean "no such file here" to a visitor: absent, a folder, or a path through a file. */
const NOT_SERVED = [Deno.errors.NotFound, Deno.errors.IsADirectory, Deno.errors.NotADirectory];

/** Whether the resolved `path` is `root` itself or below it (`/srv/a` is not below `/srv/ab`). */
function isUnder(path: string, root: string): boolean {
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
