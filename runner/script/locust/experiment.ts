/**
 * @module
 * The experiment `loadlab run locustfile.py` runs: the locustfile converted (refused with `file:line: why`
 * before any load), its target the `-H` host, else the host of its first user class run, else loadlab's
 * built-in target; one load of the users the command line asks (`-u`, `-r`, `-t`), each a virtual user
 * of one of the classes; `--stop-timeout` its graceful stop (Locust's default: 0, users stopped at once).
 * The classes and tags asked reach every isolate by LOCUST_ENV.
 */
import { basename } from "node:path";
import { convertLocustFile } from "./file.ts";
import { LOCUST_ENV, type LocustSelection } from "./runtime.ts";

/** Locust's flags beyond the load (cli/script_load_flags.ts reads them). */
export interface LocustFlags {
  /** User classes named on the command line (all of the file's when none). */
  users?: string[];
  host?: string;
  tags?: string[];
  excludeTags?: string[];
  /** `--csv PREFIX`: Locust's CSV files (stats.ts). */
  csv?: string;
  onlySummary?: boolean;
  /** `--headless`: accepted (loadlab always is). */
  headless?: boolean;
  stopTimeoutMs?: number;
  /** `--exit-code-on-error`: the exit code of a run with a failure (1 unless given). */
  exitCodeOnError?: number;
}

/** Thrown for a locustfile or flags that name what is not there (exit 2 where the command reads it). */
export class LocustInputError extends Error {
  override name = "LocustInputError";
}

/**
 * The experiment (JSON text) of locustfile `path` with `load` (the experiment file's form of one load) and
 * Locust's `flags`; `users` is `-u`.
 */
export function locustExperimentText(
  path: string,
  scriptPath: string,
  load: Record<string, unknown>,
  users: number,
  flags: LocustFlags,
): string {
  const { users: classes } = convertLocustFile(path);
  const named = flags.users ?? classes.filter((c) => !c.abstract).map((c) => c.name);
  for (const name of named) {
    if (!classes.some((c) => c.name === name)) {
      throw new LocustInputError(
        `${basename(path)}: no user class named ${name} (its classes: ${
          classes.map((c) => c.name).join(", ") || "none"
        }; for several tags write --tags a,b)`,
      );
    }
  }
  if (named.length === 0) throw new LocustInputError(`${basename(path)}: no HttpUser class to run`);
  const host = flags.host ?? classes.find((c) => named.includes(c.name) && c.host !== undefined)?.host;
  const selection: LocustSelection = {
    users: named,
    userCount: users,
    ...(flags.tags ? { tags: flags.tags } : {}),
    ...(flags.excludeTags ? { excludeTags: flags.excludeTags } : {}),
    ...(host !== undefined ? { host } : {}),
  };
  Deno.env.set(LOCUST_ENV, JSON.stringify(selection));
  const stopping = classes.filter((c) => c.onStop && named.includes(c.name)).map((c) => c.name);
  if (stopping.length > 0) {
    console.error(
      `${basename(path)}: note: ${stopping.join(", ")}.on_stop is not run: loadlab's run ends its users ` +
        "where they are (a TaskSet's on_stop runs at its interrupt())",
    );
  }
  return JSON.stringify({
    name: basename(path, ".py"),
    targets: { app: host === undefined ? { kind: "builtin" } : { url: host } },
    loads: { locust: { ...load, gracefulStop: `${flags.stopTimeoutMs ?? 0}ms` } },
    script: scriptPath,
  });
}
