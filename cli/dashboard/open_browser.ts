/**
 * @module
 * `--open`: shows a URL in the desktop's browser, else says to open it by hand.
 */
import { findProgram } from "../../system/path_lookup.ts";

/** The command that opens `url`, or null when this machine has none. */
function openerFor(os: typeof Deno.build.os, url: string): string[] | null {
  if (os === "darwin") return ["open", url];
  if (os === "windows") return ["cmd", "/c", "start", "", url];
  const opener = findProgram("xdg-open");
  return opener ? [opener, url] : null;
}

/** Opens `url` in a browser, or says why not. */
export function openBrowser(url: string): void {
  const command = openerFor(Deno.build.os, url);
  if (!command) {
    console.error(`--open: no xdg-open found; open ${url} in a browser`);
    return;
  }
  try {
    const child = new Deno.Command(command[0], {
      args: command.slice(1),
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    child.status.catch(() => {});
  } catch (err) {
    console.error(`--open: ${command[0]} failed (${(err as Error).message}); open ${url} in a browser`);
  }
}
