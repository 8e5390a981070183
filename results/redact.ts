/**
 * @module
 * Takes secrets out of results before anything is written or shown: the one place that decides what a
 * secret is. A report is meant to be shared, so URL passwords, credential headers (`Authorization`,
 * `Proxy-Authorization`, `Cookie`, `Set-Cookie`, any name containing token, key, secret, password, pwd,
 * auth or signature), query parameters (a signed URL's `sig` too), environment variables, `--flag value`
 * arguments, fields of a request's JSON or form body with such names, and WebSocket subprotocols that
 * carry a token (`secretSubprotocols`) become `[redacted 32 chars
 * sha256:1a2b3c4d]`: the length and a short hash stay, so two runs can still be told apart. Secrets are
 * first collected from the structure (request headers of the configuration, the experiment source parsed
 * as YAML or JSON, URLs in any string), then every string of the file is rewritten, so a secret echoed in
 * the experiment's source text or an error message goes too.
 *
 * It runs once per write or render, on the assembled results, never on the hot path: the engine still
 * sends the real values. Idempotent: an already redacted file comes back unchanged, its count kept.
 * Values that become names before any results exist are redacted where they enter, by the same rule:
 * a swept secret (`query.api_key`) in the plan's run names and sweep points (`shownSweepValue`), so the
 * terminal, the dashboard, metrics labels and file names show what results.json shows; the credentials a
 * metrics output sends, in every form a receiver's error could echo them (`credentialForms`, `redactKnown`).
 */
import { createHash } from "node:crypto";
import { parse as parseYaml } from "yaml";
import type { ResultsFile } from "./schema.ts";

/**
 * Names of headers, query parameters, variables and flags whose values are secrets: signed URLs carry
 * theirs as `sig`, `signature`, `X-Amz-Signature` or `X-Goog-Signature`; passwords are also `pwd` and
 * `pass` (`sig` and `pass` only as whole words, so `signal`, `design`, `bypass` or `passive` stay).
 */
const SECRET_NAME =
  /token|key|secret|passw|pwd|auth|cookie|credential|session|signature|(?:^|[^a-z])(?:sig|pass)(?:$|[^a-z])/i;
/** `scheme://user:password@`: the password group. */
const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/[^\s/@:?#]*:)([^\s/@?#]+)@/gi;
/**
 * `?name=value` / `&name=value` in a URL or a path; a `{{ placeholder }}` (spaces and all) is one piece of
 * a value, so a templated step label is read whole.
 */
const QUERY_PARAM = /([?&;])([^=&#\s?;]+)=((?:\{\{[^{}]*\}\}|[^&#\s;"'])*)/g;
/** A form-encoded body: `name=value` pairs joined by `&`, nothing else. */
const FORM_BODY = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/;
/** A `{{ name }}` placeholder: its name. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;
/** A value that is only placeholders: filled per request, the label shows no secret of its own. */
const ONLY_PLACEHOLDERS = /^(?:\{\{[^{}]*\}\})+$/;
/** Fields of bulk numbers or encoded histograms: never a secret, and most of a big file. */
const NUMBERS_ONLY = new Set([
  "histogramEncoded",
  "percentiles",
  "uncorrectedPercentiles",
  "histogram",
  "logHistogram",
]);
/** A subprotocol that is a credential: a JWT, or a long word of letters and digits (browsers pass tokens so). */
const CREDENTIAL_LIKE = /^eyJ[\w-]*\.[\w-]*\.|^(?=.*[A-Za-z])(?=.*\d)[\w.~+/=-]{20,}$/;
/** The header that carries WebSocket subprotocols (and, from browsers, tokens). */
const SUBPROTOCOL_HEADER = /^sec-websocket-protocol$/i;
/** A token `redactedToken` made. */
const TOKEN = /\[redacted \d+ chars sha256:[0-9a-f]{8}\]/g;
/** Literal replacement only for secrets this long: shorter ones would hit unrelated text. */
const MIN_LITERAL = 4;

/** What one redaction pass found: how many distinct secrets and of which kinds. */
export interface RedactionSummary {
  secrets: number;
  kinds: string[];
}

/** `[redacted 18 chars sha256:1a2b3c4d]` for `secret`. */
export function redactedToken(secret: string): string {
  const hash = createHash("sha256").update(secret).digest("hex").slice(0, 8);
  return `[redacted ${secret.length} chars sha256:${hash}]`;
}

/** Whether a header, parameter, variable or flag of this name carries a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The offered WebSocket subprotocols that are secrets: a browser cannot set headers on a WebSocket, so
 * tokens travel as subprotocols: one after a secret-named entry (`access_token, <token>`), one that names
 * a secret and carries more (`base64url.bearer.authorization.k8s.io.<token>`), or one that looks like a
 * credential (a JWT, a long word of letters and digits). Plain names (`chat`, `graphql-ws`) stay.
 */
export function secretSubprotocols(protocols: readonly string[]): string[] {
  return protocols.filter((p, i) =>
    p !== "" && (
      (i > 0 && isSecretName(protocols[i - 1])) || (isSecretName(p) && p.length > 24) ||
      CREDENTIAL_LIKE.test(p)
    )
  );
}

/** Whether a query value, as written or filled, is a secret to hide: a secret name and a literal value. */
function isSecretQueryValue(name: string, value: string): boolean {
  return value !== "" && isSecretName(name) && !ONLY_PLACEHOLDERS.test(value);
}

/**
 * Whether the values of a sweep over `parameter` are secrets: its last name is a secret one
 * (`query.api_key`, `query.token`), by the same rule as a query parameter's. A `load.*` field is a knob of
 * the engine (`load.cookies` takes a mode), never data a secret could be.
 */
export function isSecretParameter(parameter: string): boolean {
  return !parameter.startsWith("load.") && isSecretName(parameter.slice(parameter.lastIndexOf(".") + 1));
}

/**
 * A sweep value as every output shows it (run names, results, metrics labels, the terminal, file names):
 * the redacted token for a secret parameter's value, a word with its URL passwords and secret query values
 * redacted (`target.redisUrl: [redis://:PW@…]`), else the value. The load still sends the value.
 */
export function shownSweepValue(parameter: string, value: number | string): number | string {
  if (isSecretParameter(parameter)) return redactedToken(String(value));
  return typeof value === "string" ? redactText(value) : value;
}

/**
 * The forms in which a credential header's value can come back in text (a receiver's error echoing what
 * it was sent): the whole value, the token after its scheme, and for `Basic` the decoded `user:password`
 * and the password alone.
 */
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

/**
 * `text` with each of `secrets` (longest first) replaced by its token, then its URL passwords and secret
 * query values.
 */
export function redactKnown(text: string, secrets: readonly string[]): string {
  const literals = [...new Set(secrets)].filter((s) => s.length >= MIN_LITERAL)
    .sort((a, b) => b.length - a.length).map((s): [string, string] => [s, redactedToken(s)]);
  return rewrite(text, literals, new Map());
}

/**
 * The secrets `value` holds, found by the rules results.json's are (credential headers, secret `env:`
 * variables, `--flag value` arguments, URL passwords, secret query values): for a message built from a
 * configuration before any results exist (a target that failed to start echoes its command line and output).
 */
export function secretsIn(value: unknown): string[] {
  const collector = new Collector();
  collector.walk(value);
  return [...collector.secrets.keys()];
}

class Collector {
  readonly #secrets = new Map<string, string>();
  /** Names of `{{ placeholders }}` found in secret values, and the file's `variables:` (Artillery's). */
  readonly #filledIn = new Set<string>();
  readonly #variables = new Map<string, string>();
  add(value: string, kind: string): void {
    if (!value || value.includes("[redacted") || this.#secrets.has(value)) return;
    this.#secrets.set(value, kind);
    for (const m of value.matchAll(PLACEHOLDER)) this.#filledIn.add(m[1]);
  }
  /**
   * Every secret found, with its kind: a variable filled into a secret value (`Authorization: Bearer {{
   * bearer }}`) is one too, whatever its name.
   */
  get secrets(): Map<string, string> {
    for (const [name, value] of this.#variables) {
      if (this.#filledIn.has(name)) this.add(value, `${name} variable`);
    }
    return this.#secrets;
  }
  /** Finds URL passwords and secret query values in free text. */
  scanText(text: string): void {
    if (!mayHoldUrlSecret(text)) return;
    for (const m of text.matchAll(URL_USERINFO)) this.add(m[2], "URL password");
    for (const m of text.matchAll(QUERY_PARAM)) {
      if (isSecretQueryValue(m[2], m[3])) this.add(m[3], `${m[2]} query parameter`);
    }
  }
  /** Walks any JSON-like value: header tuples, header/env/query records, argument lists, URLs. */
  walk(value: unknown, parentKey = ""): void {
    if (typeof value === "string") return this.scanText(value);
    if (Array.isArray(value)) {
      // A sweep's two `values` are not a header and its value (they are found by `sweepValues`).
      if (isHeaderTuple(value) && parentKey !== "values") {
        if (isSecretName(value[0])) this.add(String(value[1]), `${value[0]} header`);
        if (SUBPROTOCOL_HEADER.test(value[0])) this.subprotocols(String(value[1]).split(","));
      } else if (parentKey === "protocols" && value.every((v) => typeof v === "string")) {
        this.subprotocols(value as string[]);
      } else if (value.every((v) => typeof v === "string")) this.scanArgs(value as string[]);
      for (const v of value) this.walk(v, parentKey);
      return;
    }
    if (value === null || typeof value !== "object") return;
    if (parentKey === "json") this.bodyFields(value as Record<string, unknown>);
    this.checkValue(value as Record<string, unknown>);
    this.sweepValues(value as Record<string, unknown>);
    const named = /^(headers|env|query|environment|variables|cookies?)$/i.test(parentKey);
    for (const [k, v] of Object.entries(value)) {
      if (parentKey === "variables" && (typeof v === "string" || typeof v === "number")) {
        this.#variables.set(k, String(v));
      }
      this.scanText(k); // error messages are keys of their count maps
      if (k === "body" && typeof v === "string") this.bodyText(v);
      if (named && isSecretName(k) && (typeof v === "string" || typeof v === "number")) {
        this.add(String(v), `${k} ${kindOf(parentKey)}`);
      }
      if (named && SUBPROTOCOL_HEADER.test(k) && typeof v === "string") this.subprotocols(v.split(","));
      if (!NUMBERS_ONLY.has(k)) this.walk(v, k);
    }
  }
  /**
   * A request body given as text (`body:`, `attack -b`): a JSON object's secret-named fields, a form's
   * (`password=…&user=…`) secret parameters, the first one included.
   */
  bodyText(text: string): void {
    if (/^\s*\{/.test(text)) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed !== null && typeof parsed === "object") this.bodyFields(parsed as Record<string, unknown>);
      } catch { /* not JSON: only its URLs are read */ }
    } else if (FORM_BODY.test(text)) this.scanText(`?${text}`);
  }
  /** A request's JSON body (`json: { password: … }`): its secret-named fields at any depth. */
  bodyFields(value: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(value)) {
      if (v !== null && typeof v === "object") this.bodyFields(v as Record<string, unknown>);
      else if (isSecretName(k) && (typeof v === "string" || typeof v === "number")) {
        this.add(String(v), `${k} body field`);
      }
    }
  }
  /** A check that a secret-named JSON field equals a value (`{ json: $.token, equals: X }`): X. */
  checkValue(value: Record<string, unknown>): void {
    if (typeof value.json !== "string" || !("equals" in value)) return;
    const field = /([A-Za-z0-9_-]+)[^A-Za-z0-9_-]*$/.exec(value.json)?.[1] ?? "";
    const v = value.equals;
    if (isSecretName(field) && (typeof v === "string" || typeof v === "number")) {
      this.add(String(v), `${field} check value`);
    }
  }
  /** A sweep (`{parameter, values}`) or a run's point (`{parameter, value}`) of a secret parameter. */
  sweepValues(value: Record<string, unknown>): void {
    if (typeof value.parameter !== "string" || !isSecretParameter(value.parameter)) return;
    const values = Array.isArray(value.values) ? value.values : [value.value];
    for (const v of values) {
      if (typeof v === "string" || typeof v === "number") {
        this.add(String(v), `${value.parameter} sweep value`);
      }
    }
  }
  /** Offered subprotocols (a list, or a header's value split at commas): the secret ones. */
  subprotocols(protocols: string[]): void {
    for (const p of secretSubprotocols(protocols.map((p) => p.trim()))) this.add(p, "WebSocket subprotocol");
  }
  /** `--api-key=X`, `--token X`, `-H "Authorization: X"` and `--ws-protocol X` in an argument list. */
  scanArgs(args: string[]): void {
    const offered = args.flatMap((arg, i) =>
      arg === "--ws-protocol" && args[i + 1] !== undefined ? [args[i + 1]] : []
    );
    this.subprotocols(offered);
    args.forEach((arg, i) => {
      if (/^(?:-b|--body)$/.test(arg) && args[i + 1] !== undefined) this.bodyText(args[i + 1]);
      if (arg.startsWith("--body=")) this.bodyText(arg.slice("--body=".length));
      const eq = /^--?([A-Za-z0-9_.-]+)=(.+)$/.exec(arg);
      if (eq && isSecretName(eq[1])) return this.add(eq[2], `--${eq[1]} argument`);
      const flag = /^--?([A-Za-z0-9_.-]+)$/.exec(arg);
      const next = args[i + 1];
      if (flag && next !== undefined && !next.startsWith("-") && isSecretName(flag[1])) {
        this.add(next, `--${flag[1]} argument`);
      }
      const header = /^([A-Za-z0-9_-]+):\s*(.+)$/.exec(arg);
      if (header && !arg.includes("://") && isSecretName(header[1])) {
        this.add(header[2], `${header[1]} header`);
      }
      if (header && SUBPROTOCOL_HEADER.test(header[1])) this.subprotocols(header[2].split(","));
    });
  }
}

function kindOf(parentKey: string): string {
  const k = parentKey.toLowerCase();
  if (k === "headers") return "header";
  if (k === "query") return "query parameter";
  if (k === "env" || k === "environment") return "environment variable";
  return "value";
}

/** Cheap test before the regular expressions: a URL password needs `@`, a query value `=`. */
function mayHoldUrlSecret(text: string): boolean {
  return text.includes("@") || text.includes("=");
}

function isHeaderTuple(value: unknown[]): value is [string, string] {
  return value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string" &&
    // A header name, not a `--flag` (a two-item argument list is read as arguments).
    !value[0].startsWith("-") && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value[0]);
}

/** The experiment source as data when it is YAML or JSON; undefined for a command line or bad text. */
function parseSource(source: string | undefined): unknown {
  if (!source) return undefined;
  try {
    return parseYaml(source, { maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

/** Rewrites one string: URL passwords and secret query values in place, then known secrets literally. */
function rewrite(text: string, literals: Array<[string, string]>, exact: Map<string, string>): string {
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
 * redacted (distinct tokens in the result, earlier passes included; absent when none ever was). `results` is not
 * changed; unchanged parts are shared with it.
 */
export function redactResults(results: ResultsFile): ResultsFile {
  const collector = new Collector();
  collector.walk(results);
  collector.walk(parseSource(results.experiment.source));
  // The experiment as run (`--set`, `--quick`, `--target` applied) may hold values the file does not.
  collector.walk(parseSource(results.experiment.ranSource));
  const exact = new Map<string, string>();
  const literals: Array<[string, string]> = [];
  for (const secret of collector.secrets.keys()) {
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
  const found = [...collector.secrets.values()].map((kind) => rewrite(kind, literals, exact));
  const kinds = [...new Set([...(before?.kinds ?? []), ...found])];
  const secrets = tokens.size || (before?.secrets ?? 0);
  // A file without secrets stays as it was: `redaction` appears only when something was redacted.
  return secrets === 0 ? redacted : { ...redacted, redaction: { secrets, kinds } };
}

/** One line for a reader: "3 secrets redacted: Authorization header, URL password"; null when none. */
export function redactionLine(summary: RedactionSummary | undefined): string | null {
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
