/**
 * @module
 * Writes a rendered report atomically (temp file, then rename), so a failure never leaves a truncated
 * report; the rendering stays pure.
 */
import type { ResultsFile } from "../results/mod.ts";
import { writeTextAtomic } from "../system/output_file.ts";
import { type RenderOptions, renderReport } from "./html/render.ts";

/** Renders `results` and writes the page to `path` atomically. */
export async function writeReport(path: string, results: ResultsFile, opts: RenderOptions = {}) {
  await writeTextAtomic(path, renderReport(results, opts));
}
