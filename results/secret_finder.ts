/**
 * @module
 * Where a configuration, command line or results file holds secrets: the one place deciding what one is.
 */
import type { ResultsFile } from "./schema/results.ts";

/** Names whose values are secrets, signed URLs' signatures too (`sig`, `pass` as whole words only). */
const SECRET_NAME =
  /token|key|secret|passw|pwd|auth|cookie|credential|session|signature|(?:^|[^a-z])(?:sig|pass)(?:$|[^a-z])/i;
/** `scheme://user:password@`: the password group (not `****`, k6's mask of one; a scheme of at most 32
 * characters bounds the scan). */
export const URL_USERINFO = /([a-z][a-z0-9+.-]{0,31}:\/\/[^\s/@:?#]*:)(?!\*+@)([^\s/@?#]+)@/gi;
/** `?name=value` / `&name=value`; a `{{ placeholder }}` is one piece of a value. */
export const QUERY_PARAM = /([?&;])([^=&#\s?;]+)=((?:\{\{[^{}]*\}\}|[^&#\s;"'])*)/g;
const FORM_BODY = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/;
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;
const ONLY_PLACEHOLDERS = /^(?:\{\{[^{}]*\}\})+$/;
/** Fields of bulk numbers or encoded histograms: never a secret, and most of a big file. */
export const NUMBERS_ONLY = new Set(
  "histogramEncoded percentiles uncorrectedPercentiles uncorrectedHistogramEncoded histogram logHistogram"
    .split(" "),
);
const CREDENTIAL_LIKE = /^eyJ[\w-]*\.[\w-]*\.|^(?=.*[A-Za-z])(?=.*\d)[\w.~+/=-]{20,}$/;
const SUBPROTOCOL_HEADER = /^sec-websocket-protocol$/i;

/** The shell's variables whose names read as secrets but hold paths (`PWD`: the working folder). */
const PATH_VARIABLES = new Set(["PWD", "OLDPWD", "SSH_AUTH_SOCK", "XAUTHORITY"]);

/** Whether an environment variable of this name carries a secret. */
export function isSecretVariable(name: string): boolean {
  return isSecretName(name) && !PATH_VARIABLES.has(name);
}

/** Whether a header, parameter, variable or flag of this name carries a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The offered WebSocket subprotocols that carry a token (after a secret name, naming one, or token-like). */
export function secretSubprotocols(protocols: readonly string[]): string[] {
  return protocols.filter((p, i) =>
    p !== "" && (
      (i > 0 && isSecretName(protocols[i - 1])) || (isSecretName(p) && p.length > 24) ||
      CREDENTIAL_LIKE.test(p)
    )
  );
}

/** Whether a query value, as written or filled, is a secret to hide: a secret name and a literal value. */
export function isSecretQueryValue(name: string, value: string): boolean {
  return value !== "" && isSecretName(name) && !ONLY_PLACEHOLDERS.test(value);
}

/** Whether a sweep over `parameter` sweeps secrets: its last name is a secret one (`query.api_key`). */
export function isSecretParameter(parameter: string): boolean {
  return !parameter.startsWith("load.") && isSecretName(parameter.slice(parameter.lastIndexOf(".") + 1));
}

/** The secrets `value` holds, by results.json's rules, for a message built before any results exist. */
export function secretsIn(value: unknown): string[] {
  return [...secretsFoundIn(value).keys()];
}

/** The secrets `value` holds (as `secretsIn`), each with the kind of place it was found in. */
export function secretsFoundIn(value: unknown): Map<string, string> {
  const collector = new Collector();
  collector.walk(value);
  return collector.secrets;
}

interface FoundSecrets {
  /** Read anew each time: it takes in the variables filled into the secrets found by then. */
  readonly secrets: Map<string, string>;
}

/** The secrets of a results file and of its experiment's source as data (results/redact_results.ts). */
export function collectSecrets(results: ResultsFile, sources: readonly unknown[]): FoundSecrets {
  const collector = new Collector();
  collector.walk(results);
  for (const source of sources) collector.walk(source);
  return collector;
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
  /** Every secret found with its kind, a variable filled into a secret value too. */
  get secrets(): Map<string, string> {
    for (const [name, value] of this.#variables) {
      if (this.#filledIn.has(name)) this.add(value, `${name} variable`);
    }
    return this.#secrets;
  }
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
    // Bytes (a data file's packed rows) are no JSON-like value: walked, each byte was a key.
    if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return;
    if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) return;
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
  /** A request body as text: a JSON object's or a form's secret-named fields. */
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
      // A script's variable, `-e NAME=VALUE` (s.env, k6's __ENV).
      const variable = /^(?:-e|--env)$/.test(args[i - 1] ?? "") ? /^([^=]+)=(.+)$/.exec(arg) : null;
      if (variable && isSecretName(variable[1])) {
        return this.add(variable[2], `${variable[1]} environment variable`);
      }
      // `--key` names a TLS key's file (attack's, ghz's): its path is no secret.
      const eq = /^--?([A-Za-z0-9_.-]+)=(.+)$/.exec(arg);
      if (eq && isSecretName(eq[1]) && eq[1] !== "key") return this.add(eq[2], `--${eq[1]} argument`);
      const flag = /^--?([A-Za-z0-9_.-]+)$/.exec(arg);
      const next = args[i + 1];
      if (flag && next !== undefined && !next.startsWith("-") && isSecretName(flag[1]) && flag[1] !== "key") {
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
export function mayHoldUrlSecret(text: string): boolean {
  return text.includes("@") || text.includes("=");
}

function isHeaderTuple(value: unknown[]): value is [string, string] {
  return value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string" &&
    // A header name, not a `--flag` (a two-item argument list is read as arguments).
    !value[0].startsWith("-") && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value[0]);
}
