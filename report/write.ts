/**
 * @module
 * Writes a rendered report to disk: the one file of `report/` that touches `Deno.*` (through
 * `writeTextAtomic`), kept apart so the rendering stays pure. The page replaces the old one only once it
 * is fully written (temp file beside it, then rename), so a failure never leaves a truncated or lost
 * report. `loadlab report`, `attack --report`, `demo` and `run` all call it.
 */
import type { ResultsFile } from "../results/mod.ts";
import { writeTextAtomic } from "../results/io.ts";
import { type RenderOptions, renderReport } from "./html/mod.ts";

/** Renders `results` and writes the page to `path` atomically. */
export async function writeReport(
  path: string,
  results: ResultsFile,
  opts: RenderOptions = {},
): Promise<void> {
  await writeTextAtomic(path, renderReport(results, opts));
}
