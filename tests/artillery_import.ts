/**
 * @module
 * An Artillery script's experiment for tests: `importArtillery`, its issues thrown as one `ArtilleryError`.
 */
import { ArtilleryError } from "../scenarios/artillery/common.ts";
import { importArtillery } from "../scenarios/artillery/convert.ts";

/** The experiment `doc` describes and its notes; throws `ArtilleryError` listing every issue. */
export function artilleryToExperiment(doc: unknown, opts: { file?: string } = {}) {
  const { experiment, notes, issues } = importArtillery(doc, opts);
  if (issues.length > 0) throw new ArtilleryError(issues);
  return { experiment, notes };
}
