/**
 * @module
 * k6's `--out csv[=ARG]` and `--out influxdb[=URL]`, checked and started as k6 does, before the load.
 */
import { resolve } from "node:path";
import { UsageError } from "../usage_error.ts";
import { parseDurationMs } from "../flag_values.ts";
import { OutputError } from "../../system/output_file.ts";
import { passInputs } from "../../runner/script/isolate_inputs.ts";
import { postText } from "../../runner/script/k6/points_out.ts";
import { basicAuth } from "../../results/export/metrics_output.ts";
import * as lines from "../../results/export/k6/sample_lines.ts";

/** Settings of output `kind`: each from its variable (`saveInterval`: K6_CSV_SAVE_INTERVAL), `pairs` over. */
function settings(kind: string, keys: string, pairs: Iterable<string[]>): Record<string, string | undefined> {
  const env = (key: string) =>
    `K6_${kind}_${key.replace(/[A-Z]/g, "_$&")}`.toUpperCase().replace("E_N", "EN");
  const v = Object.fromEntries(keys.split(" ").map((key) => [key, Deno.env.get(env(key))]));
  for (const [key, value] of pairs) {
    if (!(key in v) || !value) throw new UsageError(`--out ${kind}: give ${keys.replaceAll(" ", "=, ")}=`);
    v[key] = value;
  }
  return v;
}

/** `--out csv[=ARG]`, ARG a file or k6's `fileName=F,timeFormat=T,saveInterval=D`: its header written. */
function startCsv(arg: string, systemTags: unknown): void {
  const named = arg.includes("="), pairs = named ? arg.split(",").map((p) => p.split(/=(.*)/s, 2)) : [];
  const v = settings("csv", "fileName timeFormat saveInterval", pairs);
  const file = named || !arg ? v.fileName ?? "file.csv" : arg,
    timeFormat = (v.timeFormat ?? "unix").toLowerCase();
  const formats = lines.CSV_TIME_FORMATS;
  if (!formats.includes(timeFormat)) {
    throw new UsageError(`--out csv: time format "${v.timeFormat}" is none of k6's: ${formats.join(", ")}`);
  }
  const saveIntervalMs = parseDurationMs(v.saveInterval ?? "1s", "--out csv saveInterval");
  const { columns, header } = lines.csvHeader(systemTags);
  passInputs({ k6: { csvOut: { file: created("csv", file, header), columns, timeFormat, saveIntervalMs } } });
}

/** `--out influxdb[=URL]`, `http(s)://[user:pass@]host[/prefix]/DB[?pushInterval=...]`: its database made. */
async function startInflux(arg: string): Promise<void> {
  const url = URL.parse(arg), env = Deno.env.toObject();
  if (arg && !/^https?:$/.test(url?.protocol ?? "")) {
    throw new UsageError(`--out influxdb=${arg}: not an http(s) URL, e.g. http://127.0.0.1:8086/k6`);
  }
  const keys = "insecure pushInterval concurrentWrites tagsAsFields";
  const v = settings("influxdb", keys, url?.searchParams ?? []);
  let addr = env.K6_INFLUXDB_ADDR || "http://localhost:8086", db = env.K6_INFLUXDB_DB || "k6";
  let user = env.K6_INFLUXDB_USERNAME ?? "", password = env.K6_INFLUXDB_PASSWORD ?? "";
  if (url) {
    // As k6's: the path's last part names the database (none: k6's "k6"), what precedes it prefixes the API.
    const path = url.pathname.replace(/^\/$/, ""), slash = Math.max(0, path.lastIndexOf("/"));
    addr = url.origin + path.slice(0, slash), db = path.slice(slash + 1) || db;
    if (url.username) user = decodeURIComponent(url.username), password = decodeURIComponent(url.password);
  }
  const concurrentWrites = Number(v.concurrentWrites ?? 4), tagsAsFields: Record<string, string> = {};
  if (!/^(true|false|)$/.test(v.insecure ?? "") || !(concurrentWrites > 0)) {
    throw new UsageError(`--out influxdb: give insecure=true|false and concurrentWrites a positive number`);
  }
  for (const entry of (v.tagsAsFields ?? "vu,iter,url").split(",")) {
    const [name, kind = "string"] = entry.trim().split(":", 2);
    if (!/^(string|int|float|bool)$/.test(kind) || name in tagsAsFields) {
      throw new UsageError(`--out influxdb: tagsAsFields "${entry}": give NAME or NAME:int|float|bool, once`);
    }
    tagsAsFields[name] = kind;
  }
  const auth: Record<string, string> = user ? { authorization: basicAuth(user, password) } : {};
  const headers = { "user-agent": "k6", ...auth }, insecure = v.insecure === "true";
  const name = encodeURIComponent(db), query = `${addr}/query?db=&params=%7B%7D&q=CREATE+DATABASE+${name}`;
  await postText(query, headers, "", insecure).catch(() => {});
  const pushIntervalMs = parseDurationMs(v.pushInterval ?? "1s", "--out influxdb pushInterval");
  const writeUrl = `${addr}/write?consistency=&db=${name}&precision=ns&rp=`;
  const influxOut = { writeUrl, headers, insecure, pushIntervalMs, concurrentWrites, tagsAsFields };
  passInputs({ k6: { influxOut } });
}

/** Output `file` made, holding `text`: its whole path. */
function created(kind: string, file: string, text: string): string {
  if (!file) throw new UsageError(`--out ${kind}=: name the file, e.g. --out ${kind}=points.${kind}`);
  try {
    Deno.writeFileSync(file, lines.linesBytes(file, text));
  } catch (err) {
    throw new OutputError(`--out ${kind}=${file}: cannot write: ${(err as Error).message}`, { cause: err });
  }
  return resolve(file);
}

/** Starts k6's outputs among `--out` values `outs`: `json=FILE`, `csv[=ARG]`, `influxdb[=URL]`. */
export async function startOutputs(outs: readonly string[], systemTags: unknown): Promise<void> {
  for (const [kind, arg] of outs.map((out) => out.split(/=(.*)/s, 2))) {
    if (kind === "json" && arg !== undefined) passInputs({ k6: { jsonOut: created(kind, arg, "") } });
    if (kind === "csv") startCsv(arg ?? "", systemTags);
    if (kind === "influxdb") await startInflux(arg ?? "");
  }
}
