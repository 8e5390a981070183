/**
 * @module
 * A results file with its secrets redacted in every string, `redaction` counting them; apart from redact.ts
 * so code that only redacts text loads no YAML parser.
 */
import { withEnvSnapshot, YAML_DEBUG_VARIABLES } from "../system/env_snapshot.ts";
import { parseJsonDocument } from "../validation/json_document.ts";
import { yamlCostIssue } from "../validation/yaml_cost.ts";
import { loadedYamlPackage, yamlPackage } from "../validation/yaml_package.ts";
import { MAX_EXPERIMENT_FILE_BYTES } from "../validation/input_limits.ts";
import type { ResultsFile } from "./schema/results.ts";
import { collectSecrets, NUMBERS_ONLY } from "./secret_finder.ts";
import { knownSecrets, knowSecrets, MIN_LITERAL, redactedToken, rewrite } from "./redact.ts";

const TOKEN = /\[redacted \d+ chars sha256:[0-9a-f]{8}\]/g;

/** `value` with `f` applied to its strings; parts without a change are the same objects (no copy). */
function mapStrings(value: unknown, f: (s: string) => string, key = ""): unknown {
  if (NUMBERS_ONLY.has(key)) return value;
  if (typeof value === "string") return f(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const w = mapStrings(v, f, key);
      changed ||= w !== v;
      return w;
    });
    return changed ? out : value;
  }
  // Error messages are the keys of their count maps, and a message may echo a URL.
  const keysToo = key === "errorMessages";
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const k2 = keysToo ? f(k) : k;
    const w = mapStrings(v, f, keysToo ? key : k);
    changed ||= w !== v || k2 !== k;
    out[k2] = w;
  }
  return changed ? out : value;
}

/** `results` with every secret as its token and `redaction` counting them; `results` is not changed. */
export function redactResults(results: ResultsFile): ResultsFile {
  // The experiment as run (`--set`, `--quick`, `--target` applied) may hold values the file does not.
  const sources = [parseSource(results.experiment.source), parseSource(results.experiment.ranSource)];
  const collector = collectSecrets(results, sources);
  knowSecrets(collector.secrets);
  const exact = new Map<string, string>();
  const literals: Array<[string, string]> = [];
  for (const secret of new Set([...collector.secrets.keys(), ...knownSecrets().keys()])) {
    const token = redactedToken(secret);
    exact.set(secret, token);
    if (secret.length >= MIN_LITERAL) literals.push([secret, token]);
  }
  literals.sort((a, b) => b[0].length - a[0].length);
  // Counted by distinct tokens, so a resumed file and a second pass count each secret once.
  const tokens = new Set<string>();
  const redacted = mapStrings(results, (s) => {
    const out = rewrite(s, literals, exact);
    if (out.includes("[redacted ")) { for (const m of out.matchAll(TOKEN)) tokens.add(m[0]); }
    return out;
  }) as ResultsFile;
  const before = results.redaction;
  // The kinds are rewritten too: a misread name must not carry a secret out.
  const shownKnown = [...knownSecrets()].filter(([secret]) => tokens.has(redactedToken(secret)));
  const found = [...collector.secrets.values(), ...shownKnown.map(([, kind]) => kind)]
    .map((kind) => rewrite(kind, literals, exact));
  const kinds = [...new Set([...(before?.kinds ?? []), ...found])];
  const secrets = tokens.size || (before?.secrets ?? 0);
  return secrets === 0 ? redacted : { ...redacted, redaction: { secrets, kinds } };
}

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

/** `source` as data; undefined for a command line and for bad, overlong or costly YAML (alias bombs). */
function readSource(source: string): unknown {
  if (source.length > 2 * MAX_EXPERIMENT_FILE_BYTES || source.startsWith("loadlab ")) return undefined;
  if (/^\s*[[{]/.test(source)) {
    const json = parseJsonDocument(source);
    if (json.ok) return json.value;
  }
  // Unloaded, no YAML was read here: the text is no experiment file's (a label, merged files' JSON).
  const yaml = loadedYamlPackage();
  if (yaml === undefined || yamlCostIssue(source, yaml.Lexer) !== undefined) return undefined;
  try {
    const options = { maxAliasCount: 100, merge: true };
    return withEnvSnapshot(YAML_DEBUG_VARIABLES, () => yaml.parse(source, options));
  } catch {
    return undefined;
  }
}

/** Imports the YAML package for `redactResults` when a results file read has a source in YAML. */
export async function readSources(results: ResultsFile): Promise<void> {
  const { source, ranSource } = results.experiment;
  if ([source, ranSource].some((s) => s && !/^(\s*[[{]|loadlab )/.test(s))) await yamlPackage();
}

/** `source` as the experiment loader parsed it, so redacting its results does not parse it again. */
export function rememberSource(source: string, parsed: unknown): void {
  if (parsedSources.size >= 4) parsedSources.clear();
  parsedSources.set(source, parsed);
}
