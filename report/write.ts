/**
 * @module
 * Writes a rendered report to disk for `loadlab report`, `attack --report` and `merge --report`: the one
 * file of the report's run-time code that touches the disk (through `writeTextAtomic`; the build script
 * `assets/build_assets.ts` is the other), kept apart so the rendering stays pure. The page replaces the old
 * one only once it is fully written (temp file beside it, then rename), so a failure never leaves a
 * truncated or lost report. `loadlab run` and `demo` write theirs the same way from
 * `scenarios/run/output.ts`, with the render function the command passes in.
 */
import type { ResultsFile } from "../results/mod.ts";
import { writeTextAtomic } from "../system/atomic_write.ts";
import { type RenderOptions, renderReport } from "./html/mod.ts";

/** Renders `results` and writes the page to `path` atomically. */
export async function writeReport(
  path: string,
  results: ResultsFile,
  opts: RenderOptions = {},
): Promise<void> {
  await writeTextAtomic(path, renderReport(results, opts));
}
