/**
 * @module
 * Files behind `/static/*`: either the sample site embedded in loadlab (decoded once at start, so a
 * request is a map lookup) or a directory the user names (read per request, like express.static without
 * its caching, so edits show up at once). Paths are normalised and may not climb out of the directory.
 */
import { embeddedAssets } from "./assets_embedded.ts";

export interface StaticFile {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

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

/** `a/./b/../c` -> `a/c`; null when the path tries to leave the root or is empty. */
export function normalizeRelPath(path: string): string | null {
  const parts: string[] = [];
  for (const part of decodeURIComponent(path).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else if (part.includes("\\") || part.includes("\0")) return null;
    else parts.push(part);
  }
  return parts.length ? parts.join("/") : null;
}

/** Looks up a file by its path below `/static/`; `undefined` when absent. */
export type StaticStore = (relPath: string) => Promise<StaticFile | undefined>;

/** The embedded sample site, or the files of `dir` when given. */
export function createStaticStore(dir?: string): StaticStore {
  if (dir) return (rel) => readFromDir(dir, rel);
  const files = new Map<string, StaticFile>();
  for (const [rel, bytes] of embeddedAssets()) files.set(rel, { bytes, contentType: contentTypeOf(rel) });
  return (rel) => {
    const clean = cleanPath(rel);
    return Promise.resolve(clean === null ? undefined : files.get(clean));
  };
}

/** Like `normalizeRelPath`, with a directory (or the root) meaning its `index.html`. */
function cleanPath(rel: string): string | null {
  return normalizeRelPath(rel === "" || rel.endsWith("/") ? `${rel}index.html` : rel);
}

async function readFromDir(dir: string, rel: string): Promise<StaticFile | undefined> {
  const clean = cleanPath(rel);
  if (clean === null) return undefined;
  try {
    return { bytes: await Deno.readFile(`${dir}/${clean}`), contentType: contentTypeOf(clean) };
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.IsADirectory) return undefined;
    throw err;
  }
}
