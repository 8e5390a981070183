/**
 * @module
 * `loadlab site [DIR]`: every `results.json` under DIR as a small site of reports and comparisons.
 */
import { join, relative } from "node:path";
import { loadResultsFile } from "../results/io.ts";
import { withWriteFix, writeTextAtomic } from "../system/output_file.ts";
import { sitePages } from "../report/html/site.ts";
import type { SiteExperiment } from "../report/html/site_data.ts";
import { flag, type FlagTable, helpOf } from "./argv.ts";
import { readFlags } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";
import { openBrowser, pageResponse, serveLocal } from "./dashboard/server.ts";
import { terminalSafe } from "../validation/terminal_text.ts";
import { redactResults } from "../results/redact_results.ts";
import { badPathResponse } from "./dashboard/local_http.ts";
import { decodedPath } from "../targets/app/static_files.ts";
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";
import { notAFolder } from "../scenarios/schema/files.ts";

const SITE_TABLE: FlagTable = [
  "  DIR                 where to look for results.json files, recursively (default: out)",
  flag("--port N", { example: "8700" }, ["the port to serve on (default: a free one, printed)"]),
  flag("--host H", { example: "127.0.0.1" }, [
    "listen on H instead of 127.0.0.1 (warns: results readable from the network)",
  ]),
  flag("--open", {}, ["open the site in a browser when one is found"]),
  flag("--static OUT", { example: "site" }, [
    "write the site as plain files into OUT instead of serving it; the pages",
    "open from file:// and any static host (CI artifacts, Pages)",
  ]),
  flag("-h, --help", {}, ["this help"]),
];

const SITE_HELP = `loadlab site: browse and compare every results.json under a folder

Usage: loadlab site [DIR] [--port N] [--host H] [--open] [--static OUT]

${helpOf(SITE_TABLE, { flagAt: 2, textAt: 22 })}

Pages: index.html (every experiment), e/<id>.html (its report; ?base=<id> compares it with another,
runs paired by name as 'loadlab report --compare' pairs them).`;

/** Runs `loadlab site`; returns the exit code (serving returns only when the server stops). */
export function runSiteCommand(argv: string[]): Promise<number> {
  return runCommand("site", async () => {
    const flags = readFlags(argv, SITE_TABLE, "site", SITE_HELP);
    const [dir = "out", extra] = flags.raw.positionals;
    if (extra !== undefined) throw new UsageError(`one folder at a time, e.g. loadlab site out`);
    const port = flags.wholeNumber("port", 0, 65535) ?? 0, host = flags.nonEmpty("host") ?? "127.0.0.1";
    const out = flags.path("static");
    const why = notAFolder(dir);
    if (why) {
      throw new UsageError(`${dir}: ${why}; give the folder of results.json files, e.g. loadlab site out`);
    }
    if (out !== undefined) return await writeStatic(dir, out);
    return await serve(dir, { host, port, open: flags.has("open") });
  });
}

/** Every results.json under `dir`, read, each with an id made from its folder. */
export async function findExperiments(dir: string): Promise<SiteExperiment[]> {
  const found: SiteExperiment[] = [];
  const ids = new Set<string>();
  for (const path of (await resultsPaths(dir)).sort()) {
    try {
      // Redacted once here: the index, every report and every comparison are built from these.
      const results = redactResults(await loadResultsFile(path));
      const folder = relative(dir, join(path, "..")) || relative(join(dir, ".."), dir) || "results";
      let id = folder.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "_");
      for (let n = 2; ids.has(id); n++) id = `${id.replace(/-\d+$/, "")}-${n}`;
      ids.add(id);
      found.push({ id, results });
    } catch (err) {
      console.error(`loadlab site: note: skipped ${terminalSafe((err as Error).message)}`);
    }
  }
  return found;
}

/** Every results.json below `dir`, a symlink read through (one to a device is skipped with a note). */
async function resultsPaths(dir: string): Promise<string[]> {
  const paths: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") {
      paths.push(...await resultsPaths(path));
    } else if ((entry.isFile || entry.isSymlink) && entry.name === "results.json") paths.push(path);
  }
  return paths;
}

async function writeStatic(dir: string, out: string): Promise<number> {
  const experiments = await findExperiments(dir);
  try {
    await Deno.mkdir(join(out, "e"), { recursive: true });
    for (const [path, render] of sitePages(experiments)) await writeTextAtomic(join(out, path), render());
  } catch (err) {
    console.error(`loadlab site: --static ${out}: cannot write: ${withWriteFix((err as Error).message)}`);
    return EXIT.outputNotWritable;
  }
  console.log(`site: ${experiments.length} experiments, ${experiments.length + 1} pages in ${out}`);
  console.log(`open: ${join(out, "index.html")}`);
  return EXIT.ok;
}

async function serve(dir: string, opts: { host: string; port: number; open: boolean }): Promise<number> {
  let experiments = await findExperiments(dir);
  const { server, url } = serveLocal("site", { ...opts, portFlag: "--port" }, async (req) => {
    const decoded = decodedPath(new URL(req.url).pathname);
    if (decoded === null) return badPathResponse();
    const path = decoded.replace(/^\/+/, "") || "index.html";
    if (path === "index.html") experiments = await findExperiments(dir);
    for (const [page, render] of sitePages(experiments)) if (path === page) return pageResponse(render());
    return new Response("not found", { status: 404 });
  });
  console.log(`site: ${experiments.length} experiments from ${dir} at ${url} (Ctrl-C to stop)`);
  if (opts.open) openBrowser(url);
  await server.finished;
  return EXIT.ok;
}
