/**
 * @module
 * An experiment's `script:` (docs/SCRIPTS.md): a session script's path and its data source.
 */
import { z } from "zod";
import { isAbsolute, join, resolve } from "node:path";
import { scriptSpecSchema } from "../runner/script/spec.ts";
import { FileReadError, formatCap, readUtf8FileCapped } from "../system/read_capped.ts";

const scriptFields = z.strictObject({
  file: z.string().regex(
    /\.(ts|js|mts|mjs|py)$/,
    "a session script is a .ts or .js file (or a locustfile .py), e.g. ./session.ts",
  ),
  /** The data source each session takes one row of (`s.data`). */
  data: z.string().optional(),
  /** Origins the script names, each sent to another origin (`{"https://api.example.com": URL}`). */
  routes: scriptSpecSchema.shape.routes.optional(),
  keepHost: scriptSpecSchema.shape.keepHost.optional(),
  expectedStatuses: scriptSpecSchema.shape.expectedStatuses,
  systemTags: scriptSpecSchema.shape.systemTags,
});

export const scriptSourceSchema = z.union([
  z.string().transform((file) => ({ file })).pipe(scriptFields),
  scriptFields,
]);
type ScriptSource = z.output<typeof scriptSourceSchema>;

/** `script` with its file made absolute against the experiment file's folder (or the working folder). */
export function anchorScript(script: ScriptSource, experimentFile: string | undefined): ScriptSource {
  if (isAbsolute(script.file)) return script;
  const base = experimentFile === undefined ? Deno.cwd() : resolve(experimentFile, "..");
  return { ...script, file: resolve(join(base, script.file)) };
}

/** The largest script read: a bundled k6 script is a few MiB; converting 50 MiB takes half a minute. */
export const MAX_SCRIPT_BYTES = 64 * 2 ** 20;

/** Why the script at `path` cannot be read (not a regular file, over MAX_SCRIPT_BYTES, not UTF-8); null. */
export function scriptFileProblem(path: string): string | null {
  try {
    readUtf8FileCapped(path, MAX_SCRIPT_BYTES);
    return null;
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    // A missing script is named where scripts are checked (cli/run/script_check.ts), with its import.
    if (err.reason === "no such file") return null;
    if (err.reason.startsWith("is not UTF-8")) return err.reason;
    return `${err.reason}: a script must be a regular .ts, .js or locustfile .py file of at most ${
      formatCap(MAX_SCRIPT_BYTES)
    }`;
  }
}
