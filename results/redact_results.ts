/**
 * @module
 * A results file with its secrets taken out (results/redact.ts's rules over the whole file): the secrets
 * found in the file and in its experiment's source (results/source_data.ts) become their redacted tokens in
 * every string, keys of error counts included, and `redaction` says how many there were.
 */
import type { ResultsFile } from "./schema/results.ts";
import { collectSecrets, NUMBERS_ONLY } from "./secret_finder.ts";
import { knownSecrets, knowSecrets, MIN_LITERAL, redactedToken, rewrite } from "./redact.ts";
import { parseSource } from "./source_data.ts";

/** A token `redactedToken` made. */
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

/**
 * `results` with every secret replaced by its redacted token and `redaction` saying how many were
 * redacted (distinct tokens in the result, earlier passes included; absent when none ever was). `results` is
 * not changed; unchanged parts are shared with it.
 */
export function redactResults(results: ResultsFile): ResultsFile {
  // The experiment as run (`--set`, `--quick`, `--target` applied) may hold values the file does not.
  const sources = [parseSource(results.experiment.source), parseSource(results.experiment.ranSource)];
  const collector = collectSecrets(results, sources);
  // What this file holds is known to every other output too; what others found is redacted here.
  knowSecrets(collector.secrets);
  const exact = new Map<string, string>();
  const literals: Array<[string, string]> = [];
  for (const secret of new Set([...collector.secrets.keys(), ...knownSecrets().keys()])) {
    const token = redactedToken(secret);
    exact.set(secret, token);
    if (secret.length >= MIN_LITERAL) literals.push([secret, token]);
  }
  literals.sort((a, b) => b[0].length - a[0].length);
  // Counted by the distinct tokens in the output, so a resumed file (old runs redacted, new ones not)
  // and a second pass count each secret once.
  const tokens = new Set<string>();
  const redacted = mapStrings(results, (s) => {
    const out = rewrite(s, literals, exact);
    if (out.includes("[redacted ")) { for (const m of out.matchAll(TOKEN)) tokens.add(m[0]); }
    return out;
  }) as ResultsFile;
  const before = results.redaction;
  // A kind names where a secret was found; a misread name (a list of two values read as a header) must
  // not carry a secret out, so the kinds are rewritten too.
  const shownKnown = [...knownSecrets()].filter(([secret]) => tokens.has(redactedToken(secret)));
  const found = [...collector.secrets.values(), ...shownKnown.map(([, kind]) => kind)]
    .map((kind) => rewrite(kind, literals, exact));
  const kinds = [...new Set([...(before?.kinds ?? []), ...found])];
  const secrets = tokens.size || (before?.secrets ?? 0);
  // A file without secrets stays as it was: `redaction` appears only when something was redacted.
  return secrets === 0 ? redacted : { ...redacted, redaction: { secrets, kinds } };
}
