/**
 * @module
 * An experiment's source text as data, parsed once within the reader's bounds, for finding its
 * secrets; apart so code asking only whether a name is secret loads no YAML parser.
 */
import { parse as parseYaml } from "yaml";
import { withEnvSnapshot, YAML_DEBUG_VARIABLES } from "../system/env_snapshot.ts";
import { parseJsonDocument } from "../validation/json_document.ts";
import { yamlCostIssue } from "../validation/yaml_cost.ts";
import { MAX_EXPERIMENT_FILE_BYTES } from "../validation/input_limits.ts";

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
  const parsed = readSource(source);
  rememberSource(source, parsed);
  return parsed;
}

/**
 * `source` as data, or undefined for bad text, text longer than loadlab writes, or text the YAML parser
 * would pay for far beyond its size: a source of 60,000 anchors and aliases took minutes, one of 4 MB of
 * JSON peaked at 500 MB as YAML. YAML is read past the reader's 1 MiB: results written before that bound
 * hold up to 4 MiB of it, and the experiment as run (`ranSource`) is YAML written from a file of up to
 * 4 MiB of JSON, which its indentation may make longer; their secrets must still be found.
 */
function readSource(source: string): unknown {
  if (source.length > 2 * MAX_EXPERIMENT_FILE_BYTES) return undefined;
  if (/^\s*[[{]/.test(source)) {
    const json = parseJsonDocument(source);
    if (json.ok) return json.value;
  }
  if (yamlCostIssue(source) !== undefined) return undefined;
  try {
    // Merge keys (`<<: *base`) read as the experiment loader reads them, so its data can stand for this.
    const options = { maxAliasCount: 100, merge: true };
    return withEnvSnapshot(YAML_DEBUG_VARIABLES, () => parseYaml(source, options));
  } catch {
    return undefined;
  }
}

/**
 * `source` as the experiment loader parsed it (scenarios/load.ts), so its results are redacted without
 * parsing it again: for a flow of 100,000 steps, a parse is seconds and hundreds of megabytes.
 */
export function rememberSource(source: string, parsed: unknown): void {
  if (parsedSources.size >= 4) parsedSources.clear();
  parsedSources.set(source, parsed);
}
