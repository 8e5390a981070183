/**
 * @module
 * How an exit-2 line quotes a secret the user typed (`--set`, `-H`): as its redacted token.
 */
import { redactedToken, redactText } from "./redact.ts";
import { isSecretName } from "./secret_finder.ts";

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
