/**
 * @module
 * The experiment `loadlab run locustfile.py` runs: its target the `-H` host, else its first user class's,
 * else the built-in target; one load of `-u` users at `-r` for `-t`, each stopped as Locust stops it
 * within `--stop-timeout` plus ON_STOP_MS.
 */
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { convertLocustFile, locustSessionPath } from "./file.ts";
import { type LocustSelection, type ShapePoints, shapePoints } from "./runtime.ts";
import { MAX_STAGES } from "../../load/models/fields.ts";
import { defined } from "../../../validation/defined.ts";
import { passInputs } from "../isolate_inputs.ts";

/** How long users' `on_stop` may take at the end, beyond `--stop-timeout` (Locust waits without a bound). */
const ON_STOP_MS = 5_000;

/** How long a shape that never returns None runs (Locust's runs until stopped; `-t` does not end it). */
const SHAPE_LIMIT_MS = 6 * 3600_000;

/** A shape's points as stages: each held until the next, which it reaches in 1 ms (thinned to fit). */
function shapeStages(points: ShapePoints): Array<{ duration: string; target: number }> {
  const every = Math.ceil(points.length / ((MAX_STAGES - 2) / 2));
  const kept = points.filter((_, i) => i % every === 0 || i === points.length - 1);
  const stages: Array<{ duration: string; target: number }> = [];
  let atMs = 0, users = 0;
  for (const [ms, n] of kept) {
    if (ms > atMs) stages.push({ duration: `${ms - atMs}ms`, target: users }), atMs = ms;
    if (n !== users) stages.push({ duration: "1ms", target: n }), atMs += 1, users = n;
  }
  return stages;
}

/** Locust's flags the experiment reads (cli/run/script_load_flags.ts reads each from the command line). */
type LocustFlags = Omit<LocustSelection, "userCount" | "file" | "runTimeS" | "heard"> & {
  /** `--csv-full-history`: each name's history rows too (its interval histograms kept for them). */
  csvFullHistory?: boolean;
};

/** Thrown for a locustfile or flags that name what is not there (exit 2 where the command reads it). */
export class LocustInputError extends Error {
  override name = "LocustInputError";
}

/** The experiment (JSON text) of locustfile `path`, one `load` and Locust's `flags`; `users` is `-u`. */
export async function locustExperimentText(
  path: string,
  load: Record<string, unknown>,
  users: number,
  flags: LocustFlags,
  durationMs?: number,
): Promise<string> {
  const { users: classes, shape } = convertLocustFile(path);
  if (shape !== undefined && durationMs !== undefined) {
    console.error(`${basename(path)}: note: -t, -u and -r have no effect on its ${shape}, as on Locust`);
  } else if (durationMs === undefined && shape === undefined) {
    console.error(`${basename(path)}: note: no -t: runs 10 s (Locust's would run until stopped); give -t 5m`);
  }
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
  const { tags, excludeTags, options, stopTimeoutMs, resetStats, spawnRate = 1, logFile } = flags;
  const runTimeS = durationMs === undefined ? undefined : Math.round(durationMs / 1000);
  const selection: LocustSelection = {
    ...defined({ file: path, users: named, userCount: users, tags, excludeTags, host, options, logFile }),
    ...defined({ stopTimeoutMs, resetStats, logLevel: flags.logLevel || undefined, spawnRate, runTimeS }),
    heard: true,
  };
  passInputs({ locust: selection });
  if (shape !== undefined) {
    // The shape's tick() runs here, once a second of its clock, before the load: its users become stages.
    const points = await import(pathToFileURL(locustSessionPath(path)).href)
      .then(() => shapePoints(SHAPE_LIMIT_MS))
      .catch((err) => {
        throw new LocustInputError(`${basename(path)}: ${shape}: ${(err as Error).message}`);
      }) as ShapePoints;
    selection.userCount = Math.max(1, ...points.map(([, n]) => n));
    load = { model: "connections", stages: shapeStages(points) };
  }
  return JSON.stringify({
    name: basename(path, ".py").replace(/[^A-Za-z0-9._-]/g, "_"),
    targets: { app: host === undefined ? { kind: "builtin" } : { url: host } },
    loads: { locust: { ...load, gracefulStop: `${(flags.stopTimeoutMs ?? 0) + ON_STOP_MS}ms` } },
    script: path,
    ...(flags.csvFullHistory ? { intervalHistograms: "endpoints" } : {}),
  });
}
