/**
 * @module
 * Takes secrets out of output: each becomes `[redacted N chars sha256:...]`, known everywhere from then on.
 */
import { createHash } from "node:crypto";
import type { ResultsFile } from "./schema/results.ts";
import {
  isSecretName,
  isSecretParameter,
  isSecretQueryValue,
  mayHoldUrlSecret,
  QUERY_PARAM,
  URL_USERINFO,
} from "./secret_finder.ts";

/** Literal replacement only for secrets this long: shorter ones would hit unrelated text. */
export const MIN_LITERAL = 4;

/** `[redacted 18 chars sha256:1a2b3c4d]` for `secret`. */
export function redactedToken(secret: string): string {
  const hash = createHash("sha256").update(secret).digest("hex").slice(0, 8);
  return `[redacted ${secret.length} chars sha256:${hash}]`;
}

/** A sweep value as every output shows it: redacted when secret (the load still sends the value). */
export function shownSweepValue(parameter: string, value: number | string): number | string {
  if (isSecretParameter(parameter)) return redactedToken(String(value));
  return typeof value === "string" ? redactText(value) : value;
}

/** The forms a credential header's value can come back in: whole, after its scheme, Basic decoded. */
export function credentialForms(value: string): string[] {
  const forms = [value];
  const token = /^\s*[A-Za-z-]+\s+(\S+)\s*$/.exec(value)?.[1];
  if (token) forms.push(token);
  if (token && /^basic\s/i.test(value.trim())) {
    try {
      const decoded = atob(token);
      forms.push(decoded);
      const colon = decoded.indexOf(":");
      if (colon >= 0) forms.push(decoded.slice(colon + 1));
    } catch { /* not base64: the token itself is the secret */ }
  }
  return forms.filter((f) => f.length >= MIN_LITERAL);
}

/** `text` with `secrets` (longest first), URL passwords and secret query values redacted. */
export function redactKnown(text: string, secrets: readonly string[]): string {
  const literals = [...new Set(secrets)].filter((s) => s.length >= MIN_LITERAL)
    .sort((a, b) => b.length - a.length).map((s): [string, string] => [s, redactedToken(s)]);
  return rewrite(text, literals, new Map());
}

/** Rewrites one string: URL passwords and secret query values in place, then known secrets literally. */
export function rewrite(text: string, literals: Array<[string, string]>, exact: Map<string, string>): string {
  const whole = exact.get(text);
  if (whole !== undefined) return whole;
  if (!mayHoldUrlSecret(text) && !literals.some(([secret]) => text.includes(secret))) return text;
  let out = text.replace(
    URL_USERINFO,
    (all, head: string, pw: string) => pw.startsWith("[redacted") ? all : `${head}${redactedToken(pw)}@`,
  );
  out = out.replace(
    QUERY_PARAM,
    (all, sep: string, name: string, value: string) =>
      isSecretQueryValue(name, value) && !value.startsWith("[redacted")
        ? `${sep}${name}=${redactedToken(value)}`
        : all,
  );
  for (const [secret, token] of literals) if (out.includes(secret)) out = out.split(secret).join(token);
  return out;
}

/** Every secret found in this process, by its value: the kind of place it was first found in. */
const KNOWN = new Map<string, string>();
let knownLiterals: Array<[string, string]> | null = null;

/** Makes each of `found` known to every output from now on, in every form it can come back in. */
export function knowSecrets(found: Iterable<readonly [string, string]>): void {
  for (const [value, kind] of found) {
    const forms = /header|metadata/i.test(kind) ? credentialForms(value) : [value];
    for (const form of forms) {
      if (form.length < MIN_LITERAL || KNOWN.has(form) || form.includes("[redacted")) continue;
      KNOWN.set(form, kind);
      knownLiterals = null;
    }
  }
}

export function knownSecrets(): ReadonlyMap<string, string> {
  return KNOWN;
}

let keepingSecrets = false;

/** From now on outputs keep their secrets (`--no-redact`, `redact: false`). */
export function keepSecretsShown(): void {
  keepingSecrets = true;
}

/** `text` as it may be shown or written: every known secret redacted (unless `keepSecretsShown`). */
export function redactShown(text: string): string {
  if (keepingSecrets) return text;
  knownLiterals ??= [...KNOWN.keys()].sort((a, b) => b.length - a.length).map((s) => [s, redactedToken(s)]);
  return rewrite(text, knownLiterals, new Map());
}

/** One line for a reader: "3 secrets redacted: Authorization header, URL password"; null when none. */
export function redactionLine(summary: ResultsFile["redaction"]): string | null {
  if (!summary || summary.secrets === 0) return null;
  const kinds = summary.kinds.length > 6
    ? `${summary.kinds.slice(0, 6).join(", ")} and ${summary.kinds.length - 6} more kinds`
    : summary.kinds.join(", ");
  return `${summary.secrets} secret${summary.secrets === 1 ? "" : "s"} redacted: ${kinds}`;
}

/** URL passwords and secret query values of one line of text (for terminal lines that echo a URL). */
export function redactText(text: string): string {
  return rewrite(text, [], new Map());
}

/** A `--set PATH=VALUE` as messages quote it: secret fields as their token, else URL secrets redacted. */
export function shownAssignment(assignment: string): string {
  const eq = assignment.indexOf("=");
  if (eq < 0) return redactText(assignment);
  const path = assignment.slice(0, eq);
  return `${path}=${shownFieldValue(path, assignment.slice(eq + 1))}`;
}

/** The value of the field at `path` as messages quote it (a YAML map's secret entries redacted). */
export function shownFieldValue(path: string, value: string): string {
  const last = path.replace(/\[[^\]]*\]$/, "").split(".").pop() ?? "";
  const loadKnob = /^loads\.[^.]+\.[^.]+$/.test(path);
  if (!loadKnob && value !== "" && isSecretName(last)) return redactedToken(value);
  return redactText(value).replace(
    MAP_ENTRY,
    (all, name: string, sep: string, quote: string, v: string) =>
      isSecretName(name) ? `${name}${sep}${quote}${redactedToken(v)}` : all,
  );
}

/** `name: value` in a YAML flow map (`{a: 1, b: "x"}`): the value up to its quote, comma or brace. */
const MAP_ENTRY = /([A-Za-z0-9_.-]+)(\s*:\s*)(["']?)([^,}"'\s][^,}"']*)/g;

/** A `Name: value` header as messages quote it: the value as its token under a secret name. */
export function shownHeader(text: string): string {
  const m = /^([^:\s]+)(:\s*|\s+)([\s\S]*)$/.exec(text);
  if (!m || m[3].trim() === "" || !isSecretName(m[1])) return redactText(text);
  return `${m[1]}${m[2]}${redactedToken(m[3].trim())}`;
}
