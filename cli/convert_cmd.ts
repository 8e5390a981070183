/**
 * @module
 * `loadlab convert k6 script.js` or `convert locust locustfile.py [-o session.js]`: the session loadlab runs.
 */
import { basename, dirname, join, resolve } from "node:path";
import { asModule, convertK6, K6ConvertError } from "../runner/script/k6/convert/convert.ts";
import { convertLocust, LocustConvertError } from "../runner/script/locust/convert.ts";
import { flag, type FlagTable, helpOf } from "./argv.ts";
import { runCommand } from "./command_errors.ts";
import { EXIT } from "./exit_codes.ts";
import { readFlags } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";
import { OutputError, sameFile } from "../system/output_file.ts";
import { formatCap, readFileCapped, readOrRefuse } from "../system/read_capped.ts";
import { MAX_SCRIPT_BYTES } from "../scenarios/script_source.ts";

const TABLE: FlagTable = [
  flag("-o, --out OUT.js", { example: "session.js" }, ["write the session script to OUT.js, not stdout"]),
  flag("-h, --help", {}, ["this help"]),
];

const HELP = `Usage: loadlab convert k6 SCRIPT.js [-o OUT.js]
       loadlab convert locust LOCUSTFILE.py [-o OUT.js]

Writes the loadlab session script a k6 script runs as (to stdout, or to OUT.js): k6's calls awaited,
its modules imported from loadlab's k6 runtime, every line where it was. 'loadlab run SCRIPT.js' does
the same by itself; this is for reading the result or leaving k6 (docs/SCRIPTS.md, "k6 scripts").
A locustfile's session is its Python as JavaScript, each statement on its line, on loadlab's Locust
runtime (docs/LOCUST.md).

${helpOf(TABLE, { flagAt: 2, textAt: 22 })}`;

export function runConvertCommand(argv: string[]): Promise<number> {
  return runCommand("convert", async () => {
    const flags = readFlags(argv, TABLE, "convert", HELP);
    const [kind, source, ...extra] = flags.raw.positionals;
    if ((kind !== "k6" && kind !== "locust") || source === undefined || extra.length > 0) {
      throw new UsageError(
        "write loadlab convert k6 SCRIPT.js [-o OUT.js] or loadlab convert locust LOCUSTFILE.py [-o OUT.js]",
      );
    }
    const out = flags.path("out");
    const path = resolve(source);
    // By path, or as the same file by another name (a symbolic link the write followed, a hard link).
    if (out !== undefined && (resolve(out) === path || sameFile(out, path))) {
      throw new UsageError(`-o ${out}: is the ${kind} script itself; write the session to another file`);
    }
    const text = readScript(source, path, kind);
    let code: string, modules: Array<{ path: string; code: string }> = [];
    try {
      if (kind === "k6") code = convertK6(asModule(text, path), basename(path), dirname(path), true).code;
      else ({ code, modules } = convertLocust(text, basename(path), dirname(path)));
    } catch (err) {
      if (err instanceof K6ConvertError || err instanceof LocustConvertError) {
        throw new UsageError(err.message, { cause: err });
      }
      throw err;
    }
    if (out === undefined && modules.length > 0) {
      throw new UsageError(
        `${source}: imports modules of its folder: give -o OUT.js (each is written beside it)`,
      );
    }
    if (out === undefined) console.log(code);
    if (out !== undefined) await writeSession(out, code);
    for (const m of modules) await writeSession(join(dirname(out!), `${m.path}.js`), m.code, true);
    return EXIT.ok;
  });
}

/** The script's text: a regular file of at most `MAX_SCRIPT_BYTES` (never a device, read without end). */
function readScript(source: string, path: string, kind: string): string {
  const file = kind === "k6" ? "k6 script is a regular .js" : "locustfile is a regular .py";
  const bytes = readOrRefuse(
    () => readFileCapped(path, MAX_SCRIPT_BYTES),
    (why, cause) =>
      new UsageError(`${source}: ${why}: a ${file} file of at most ${formatCap(MAX_SCRIPT_BYTES)}`, cause),
  );
  return new TextDecoder().decode(bytes);
}

/** Writes the session (or a module of it, in a `folder` made beside it) to `out`; a refusal is exit 5. */
async function writeSession(out: string, code: string, folder = false): Promise<void> {
  try {
    if (folder) await Deno.mkdir(dirname(out), { recursive: true });
    await Deno.writeTextFile(out, code);
  } catch (err) {
    throw new OutputError(`-o ${out}: cannot write: ${err instanceof Error ? err.message : err}`, {
      cause: err,
    });
  }
}
