/**
 * @module
 * A metrics output (`--out KIND=URL`, `out:`), parsed or refused; URL credentials go in `Authorization`.
 */
import { Buffer } from "node:buffer";
import { nearest } from "../../validation/suggest.ts";
import { redactedToken, redactText } from "../redact.ts";
import { METRICS_OUT_KINDS, type MetricsOutKind } from "./summary.ts";

/** One parsed `KIND=URL`. */
export interface MetricsOutput {
  kind: MetricsOutKind;
  url: string;
  /** `Authorization` from the URL's user and password, when it had them. */
  headers: Record<string, string>;
}

const METRICS_OUT_EXAMPLES: Record<MetricsOutKind, string> = {
  "prometheus-remote-write": "prometheus-remote-write=http://127.0.0.1:9090/api/v1/write",
  otlp: "otlp=http://127.0.0.1:4318/v1/metrics",
  "otlp-json": "otlp-json=http://127.0.0.1:4318/v1/metrics",
};

const BOTH = `e.g. ${METRICS_OUT_EXAMPLES["prometheus-remote-write"]} or ${METRICS_OUT_EXAMPLES.otlp}`;

/** Whether a value is meant as a metrics output (a known kind, or `name=` then a URL) rather than a file. */
export function isMetricsOut(value: string): boolean {
  const match = /^([a-z][a-z0-9-]*)=(.*)$/i.exec(value);
  if (!match) return false;
  return (METRICS_OUT_KINDS as readonly string[]).includes(match[1]) ||
    /^[a-z][a-z0-9+.-]*:\/\//i.test(match[2]);
}

/** `text` (a URL or `KIND=URL`) with the password before its `@` redacted, with or without a scheme. */
export function withoutPassword(text: string): string {
  return redactText(text.replace(
    /^((?:[a-z][a-z0-9-]*=)?(?:[a-z][a-z0-9+.-]*:)?(?:\/\/)?[^\s/?#@:]*:)([^/?#]+)@/i,
    (_, head: string, password: string) => `${head}${redactedToken(password)}@`,
  ));
}

/** The output, or what is wrong with the value and the fix (one sentence, no prefix). */
export function parseMetricsOutput(value: string): MetricsOutput | string {
  const eq = value.indexOf("=");
  if (eq < 0) return `not KIND=URL; ${BOTH}`;
  const kindText = value.slice(0, eq);
  const kind = METRICS_OUT_KINDS.find((k) => k === kindText);
  if (!kind) {
    const near = nearest(kindText, METRICS_OUT_KINDS);
    return `unknown output kind "${kindText}"; ${near ? `did you mean ${near}? ` : ""}${BOTH}`;
  }
  const text = value.slice(eq + 1);
  const shown = withoutPassword(text);
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    const what = url === null ? "a URL" : "http(s)";
    return `${kind}: "${shown}" is not ${what}; give an http(s) URL, e.g. ${METRICS_OUT_EXAMPLES[kind]}`;
  }
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username), password = decodeURIComponent(url.password);
    headers.authorization = basicAuth(user, password);
    url.username = "";
    url.password = "";
  }
  if (kind !== "prometheus-remote-write" && url.pathname === "/") url.pathname = "/v1/metrics";
  return { kind, url: url.href, headers };
}

/** HTTP Basic credentials of `user` and `password` as UTF-8 (btoa takes Latin-1 only, and throws past it). */
export const basicAuth = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** What is wrong with `values` by index: each one not `KIND=URL`, else each given after an equal one. */
export function outputProblems(values: readonly string[]): Array<[number, string]> {
  const parsed = values.map(parseMetricsOutput);
  const unread = parsed.flatMap((o, i): Array<[number, string]> => typeof o === "string" ? [[i, o]] : []);
  if (unread.length > 0) return unread;
  const outputs = parsed as MetricsOutput[],
    twice = "every point would reach the receiver twice; give it once";
  return outputs.flatMap(({ kind, url }, i): Array<[number, string]> => {
    const earlier = outputs.slice(0, i).findIndex((o) => o.kind === kind && o.url === url);
    return earlier < 0 ? [] : [[i, `given twice (as output ${earlier + 1} too): ${twice}`]];
  });
}
