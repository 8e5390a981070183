/**
 * @module
 * An experiment's source text as data (YAML or JSON), for finding the secrets it holds when its results
 * are redacted: parsed once and kept, since results are redacted at every write. Apart from the secret
 * rules (secret_finder.ts) so that code which only asks whether a name is secret (a load worker naming
 * a script's requests) does not load a YAML parser.
 */
import { parse as parseYaml } from "yaml";
import { withEnvSnapshot, YAML_DEBUG_VARIABLES } from "../system/env_snapshot.ts";

/**
 * The sources parsed so far: results are redacted at every write (after each run, for the report, the
 * terminal), and parsing an experiment of 100,000 flow steps took seconds each time, so a 1 s run ended 20
 * s later. Two experiments (as written, as run) at a time are what one process redacts.
 */
const parsedSources = new Map<string, unknown>();

/** The experiment source as data when it is YAML or JSON; undefined for a command line or bad text. */
export function parseSource(source: string | undefined): unknown {
  if (!source) return undefined;
  if (parsedSources.has(source)) return parsedSources.get(source);
  let parsed: unknown;
  try {
    // Merge keys (`<<: *base`) read as the experiment loader reads them, so its data can stand for this.
    const options = { maxAliasCount: 100, merge: true };
    parsed = withEnvSnapshot(YAML_DEBUG_VARIABLES, () => parseYaml(source, options));
  } catch {
    parsed = undefined;
  }
  rememberSource(source, parsed);
  return parsed;
}

/**
 * `source` as the experiment loader parsed it (scenarios/load.ts), so its results are redacted without
 * parsing it again: for a flow of 100,000 steps, a parse is seconds and hundreds of megabytes.
 */
export function rememberSource(source: string, parsed: unknown): void {
  if (parsedSources.size >= 4) parsedSources.clear();
  parsedSources.set(source, parsed);
}
