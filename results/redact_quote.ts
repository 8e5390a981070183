/**
 * @module
 * How an exit-2 line quotes a secret the user typed (`--set`, `-H`): as its redacted token.
 */
import { redactedToken, redactText } from "./redact.ts";
import { isSecretName } from "./secret_finder.ts";

/**
 * A `--set PATH=VALUE` as messages quote it: the value as its token when the field's name is a secret one
 * (`headers.authorization`, `env.API_TOKEN`), else with its URL passwords and secret query values
 * redacted. A load's own fields (`loads.NAME.cookies`) are knobs of the engine, never secrets.
 */
export function shownAssignment(assignment: string): string {
  const eq = assignment.indexOf("=");
  if (eq < 0) return redactText(assignment);
  const path = assignment.slice(0, eq);
  return `${path}=${shownFieldValue(path, assignment.slice(eq + 1))}`;
}

/**
 * The value of the field at `path` as messages quote it (see `shownAssignment`); a YAML map given as the
 * value (`env={API_TOKEN: X}`, valid or not) has its secret-named entries' values redacted.
 */
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

/**
 * A `Name: value` header as messages quote it (a refused `-H`): the value as its token when the name (the
 * text before `:`, else the first word, for a header missing its colon) is a secret one.
 */
export function shownHeader(text: string): string {
  const m = /^([^:\s]+)(:\s*|\s+)([\s\S]*)$/.exec(text);
  if (!m || m[3].trim() === "" || !isSecretName(m[1])) return redactText(text);
  return `${m[1]}${m[2]}${redactedToken(m[3].trim())}`;
}
