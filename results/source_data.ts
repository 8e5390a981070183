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

/** Sources parsed so far: redacting at every write would otherwise parse a big experiment each time. */
const parsedSources = new Map<string, unknown>();

/** The experiment source as data when it is YAML or JSON; undefined for a command line or bad text. */
export function parseSource(source: string | undefined): unknown {
  if (!source) return undefined;
  if (parsedSources.has(source)) return parsedSources.get(source);
  const parsed = readSource(source);
  rememberSource(source, parsed);
  return parsed;
}

/** `source` as data, or undefined for bad, too long or too costly YAML (alias bombs); read past 1 MiB. */
function readSource(source: string): unknown {
  if (source.length > 2 * MAX_EXPERIMENT_FILE_BYTES) return undefined;
  if (/^\s*[[{]/.test(source)) {
    const json = parseJsonDocument(source);
    if (json.ok) return json.value;
  }
  if (yamlCostIssue(source) !== undefined) return undefined;
  try {
    const options = { maxAliasCount: 100, merge: true };
    return withEnvSnapshot(YAML_DEBUG_VARIABLES, () => parseYaml(source, options));
  } catch {
    return undefined;
  }
}

/** `source` as the experiment loader parsed it, so redacting its results does not parse it again. */
export function rememberSource(source: string, parsed: unknown): void {
  if (parsedSources.size >= 4) parsedSources.clear();
  parsedSources.set(source, parsed);
}
