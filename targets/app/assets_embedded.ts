/**
 * @module
 * The sample static site behind `/static/*`, inside the module graph so that `deno compile` embeds it (a
 * compiled binary has no source tree to read from). Its text files are text imports of `assets/`; the binary
 * ones come as base64 from `generated/binary_assets.ts`, which `gen_assets.ts` writes. `gen_assets_test.ts`
 * checks that every file under `assets/` is here with its exact bytes.
 */
import aboutHtml from "./assets/about.html" with { type: "text" };
import appJs from "./assets/app.js" with { type: "text" };
import galleryHtml from "./assets/gallery.html" with { type: "text" };
import logoSvg from "./assets/images/logo.svg" with { type: "text" };
import indexHtml from "./assets/index.html" with { type: "text" };
import styleCss from "./assets/style.css" with { type: "text" };
import { decodeBase64 } from "./base64.ts";
import { BINARY_ASSETS_BASE64 } from "./generated/binary_assets.ts";

/** Relative path -> text of the site's text files. */
const TEXT_ASSETS: Record<string, string> = {
  "about.html": aboutHtml,
  "app.js": appJs,
  "gallery.html": galleryHtml,
  "images/logo.svg": logoSvg,
  "index.html": indexHtml,
  "style.css": styleCss,
};

/**
 * Relative path -> bytes of every file of the sample site, decoded afresh on each call (done once at start).
 */
export function embeddedAssets(): Map<string, Uint8Array<ArrayBuffer>> {
  const encoder = new TextEncoder();
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const [rel, text] of Object.entries(TEXT_ASSETS)) files.set(rel, encoder.encode(text));
  for (const [rel, base64] of Object.entries(BINARY_ASSETS_BASE64)) files.set(rel, decodeBase64(base64));
  return files;
}
