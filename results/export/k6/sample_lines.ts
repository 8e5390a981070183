/**
 * @module
 * One k6 sample as a row of k6's `--out csv` and a line of `--out influxdb`, as k6 writes them. Pure.
 */
import { gzipSync } from "node:zlib";
import { K6_SYSTEM_TAGS } from "../../thresholds/selector.ts";

/** Lines as written to `file`: gzipped when it ends `.gz` (each write a gzip member, as `gunzip` reads). */
export const linesBytes = (file: string, text: string): Uint8Array =>
  file.endsWith(".gz") ? gzipSync(text) : new TextEncoder().encode(text);

/** k6's CSV time formats (`timeFormat=`, K6_CSV_TIME_FORMAT). */
export const CSV_TIME_FORMATS = "unix unix_milli unix_micro unix_nano rfc3339 rfc3339_nano".split(" ");

/** k6's CSV header: its tag columns the system tags kept (`systemTags`, else k6's default) but vu, iter. */
export function csvHeader(systemTags: unknown): { columns: string[]; header: string } {
  const kept = Array.isArray(systemTags) ? systemTags : K6_SYSTEM_TAGS.slice(0, 14);
  const columns = K6_SYSTEM_TAGS.filter((t) => kept.includes(t) && t !== "vu" && t !== "iter").sort();
  const names = ["metric_name", "timestamp", "metric_value", ...columns, "extra_tags", "metadata"];
  return { columns, header: `${names.join(",")}\n` };
}

/** A sample as k6's CSV row: `timeUs` since the epoch in `format`; tags not a column go in `extra_tags`. */
export function csvRow([metric, timeUs, value, tags, metadata]: Sample, columns: string[], format: string) {
  const extra = Object.keys(tags).filter((k) => !columns.includes(k)).map((k) => `${k}=${tags[k]}`);
  const meta = Object.entries(metadata ?? {}).map(([k, v]) => `${k}=${v}`).join("&");
  const cells = [metric, csvTime(timeUs, format), value.toFixed(6), ...columns.map((c) => tags[c] ?? "")];
  return [...cells, extra.join("&"), meta].map(csvCell).join(",") + "\n";
}

/** A sample: its metric, time (µs since the epoch), value, tags and k6's metadata (`vu`, `iter`). */
export type Sample = [string, number, number, Readonly<Record<string, string>>, Record<string, string>?];

function csvTime(timeUs: number, format: string): string {
  const unit = CSV_TIME_FORMATS.indexOf(format), us = timeUs % 1e6;
  if (unit < 4) return Math.floor(timeUs / 1e3 ** (2 - Math.min(unit, 2))) + (unit === 3 ? "000" : "");
  // Go's RFC3339Nano drops the fraction's trailing zeros (and its dot when nothing is left).
  const fraction = format === "rfc3339_nano" ? `.${String(us).padStart(6, "0")}`.replace(/\.?0+$/, "") : "";
  return new Date(timeUs / 1000).toISOString().slice(0, 19) + `${fraction}Z`;
}

/** Go's encoding/csv: quoted when the text holds a comma, quote or line break, or starts with a space. */
const csvCell = (text: string) => /[",\r\n]|^\s/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;

/** A sample as InfluxDB's line: tags sorted (empty ones dropped), those of `tagsAsFields` as fields. */
export function influxLine([metric, timeUs, value, tags]: Sample, asFields: Record<string, string>) {
  const fields: Record<string, string> = { value: String(value) };
  let key = metric.replace(/[, ]/g, "\\$&");
  for (const name of Object.keys(tags).sort()) {
    const text = tags[name], kind = asFields[name];
    if (kind !== undefined) fields[name] = fieldText(text, kind);
    else if (text !== "") key += `,${name.replace(/[, =]/g, "\\$&")}=${text.replace(/[, =]/g, "\\$&")}`;
  }
  const set = Object.keys(fields).sort().map((k) => `${k.replace(/[,"= ]/g, "\\$&")}=${fields[k]}`);
  return `${key} ${set} ${timeUs}000\n`;
}

const TRUE = /^(1|t|T|TRUE|true|True)$/, FALSE = /^(0|f|F|FALSE|false|False)$/;

/** A tag named in `tagsAsFields` as a field (`url`, `vu:int`): text unless it parses as its kind. */
function fieldText(text: string, kind: string): string {
  if (kind === "int" && /^[-+]?\d+$/.test(text)) return `${BigInt(text)}i`;
  if (kind === "float" && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return String(Number(text));
  if (kind === "bool" && (TRUE.test(text) || FALSE.test(text))) return String(TRUE.test(text));
  return `"${text.replace(/["\\]/g, "\\$&")}"`;
}
