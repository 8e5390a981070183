/**
 * @module
 * `--out KIND=URL` on `attack` and `run`: a metrics output (`prometheus-remote-write=URL`, `otlp=URL`)
 * as opposed to `attack`'s `-o FILE`. A value is a metrics output when its part before `=` is a known
 * kind, or looks like one (`name=` then a URL): then an unknown kind or a URL that is not http(s) is a
 * `UsageError` (exit 2) naming the flag and the fix, before any load. Credentials in the URL become a
 * basic `Authorization` header (fetch refuses them in the URL) and leave the URL results keep.
 */
import { nearest } from "../../validation/suggest.ts";
import { METRICS_OUT_KINDS, type MetricsOutKind } from "../../results/export/summary.ts";
import { UsageError } from "../usage_error.ts";

/** One parsed `--out KIND=URL`. */
export interface MetricsOutput {
  kind: MetricsOutKind;
  /** Where to POST, without credentials. */
  url: string;
  /** `Authorization` from the URL's user and password, when it had them. */
  headers: Record<string, string>;
}

const EXAMPLES: Record<MetricsOutKind, string> = {
  "prometheus-remote-write": "prometheus-remote-write=http://127.0.0.1:9090/api/v1/write",
  otlp: "otlp=http://127.0.0.1:4318/v1/metrics",
};

/** Whether a `--out` value is meant as a metrics output rather than a file. */
export function isMetricsOut(value: string): boolean {
  const match = /^([a-z][a-z0-9-]*)=(.*)$/i.exec(value);
  if (!match) return false;
  return (METRICS_OUT_KINDS as readonly string[]).includes(match[1]) ||
    /^[a-z][a-z0-9+.-]*:\/\//i.test(match[2]);
}

/** Parses one `--out KIND=URL` (`typed` is how the flag was spelled); throws `UsageError`. */
export function parseMetricsOut(typed: string, value: string): MetricsOutput {
  const eq = value.indexOf("=");
  const kindText = eq < 0 ? value : value.slice(0, eq);
  const kind = METRICS_OUT_KINDS.find((k) => k === kindText);
  if (!kind) {
    const near = nearest(kindText, METRICS_OUT_KINDS);
    throw new UsageError(
      `${typed} ${value}: unknown output kind "${kindText}"; ${near ? `did you mean ${near}? ` : ""}` +
        `use ${typed} ${EXAMPLES["prometheus-remote-write"]} or ${typed} ${EXAMPLES.otlp}`,
    );
  }
  const text = value.slice(eq + 1);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badUrl(typed, kind, text, "not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badUrl(typed, kind, text, "not http(s)");
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username), password = decodeURIComponent(url.password);
    headers.authorization = `Basic ${btoa(`${user}:${password}`)}`;
    url.username = "";
    url.password = "";
  }
  // OTLP/HTTP's base endpoint gets the metrics path, as OTEL_EXPORTER_OTLP_ENDPOINT does.
  if (kind === "otlp" && url.pathname === "/") url.pathname = "/v1/metrics";
  return { kind, url: url.href, headers };
}

function badUrl(typed: string, kind: MetricsOutKind, text: string, why: string): UsageError {
  return new UsageError(
    `${typed} ${kind}=${text}: ${why}; give an http(s) URL, e.g. ${typed} ${EXAMPLES[kind]}`,
  );
}
