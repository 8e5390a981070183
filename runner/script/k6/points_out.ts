/**
 * @module
 * k6's sample outputs: NDJSON (`--out json`), CSV (`--out csv`) and InfluxDB's line protocol. Each worker
 * appends whole lines in one write so workers' lines never interleave; a `.gz` file gets a member a write.
 */
import { type ExpectedStatuses, isExpectedStatus } from "../../../results/schema/keys.ts";
import { k6Thresholds } from "../../../results/thresholds/selector.ts";
import { csvRow, influxLine, linesBytes, type Sample } from "../../../results/export/k6/sample_lines.ts";
import { expectedStatuses, ioBytes } from "../../stats/recorder.ts";
import { atRunEnd, runCounters } from "../run_state.ts";
import { isolateFlags } from "./isolate_flags.ts";
import { type Iteration, iterationMetadata, jsonPointTags, leftOut, named } from "./tags.ts";
import type { Response } from "../session.ts";

const { jsonOut, csvOut, influxOut } = isolateFlags;
/** Whether samples are written: by `--out json`, `csv` or `influxdb`. */
export const pointsOut = jsonOut !== undefined || csvOut !== undefined || influxOut !== undefined;
/** The output's own errors, on the terminal even when `--console-output` takes the script's console. */
const logError = console.error.bind(console);

/** k6's request phases, timed on the connection (sessions/response.ts). */
export const PHASES = [
  ...["http_req_blocked", "http_req_connecting", "http_req_tls_handshaking"],
  ...["http_req_sending", "http_req_waiting", "http_req_receiving"],
];
const phaseMs = new Float64Array(PHASES.length);

/** `raw`'s phases in PHASES' order (one array, refilled): 0 where none was measured (no response). */
export function phasesOf(raw: Response): Float64Array {
  phaseMs[0] = raw.blockedMs || 0, phaseMs[1] = raw.dial?.connectingMs ?? 0, phaseMs[3] = raw.sendingMs || 0;
  phaseMs[2] = raw.dial?.tlsHandshakingMs ?? 0, phaseMs[4] = raw.waitingMs || 0;
  phaseMs[5] = raw.receivingMs || 0;
  return phaseMs;
}

type Kind = "counter" | "gauge" | "rate" | "trend";

/** Lines for a file or a server, sent when flushed, every `everyMs` when `ready`, and as the load ends. */
function linesOut(send: (text: string) => unknown, everyMs = 0, ready = () => true) {
  const o = { lines: [] as string[], flush: () => o.lines.length > 0 && send(o.lines.splice(0).join("")) };
  const timer = everyMs > 0 && setInterval(() => ready() && o.flush(), everyMs);
  if (timer) Deno.unrefTimer(timer), atRunEnd(() => (clearInterval(timer), o.flush()));
  return o;
}

/** Appends whole lines to `path` (the file was checked writable before the load; a full disk loses lines). */
function appender(path: string): (text: string) => void {
  let file: Deno.FsFile | null = null;
  return (text) => {
    try {
      file ??= Deno.openSync(path, { append: true, create: true });
      const bytes = linesBytes(path, text);
      for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
    } catch {
      // A disk that fills loses samples, never the run.
    }
  };
}

/** NDJSON every 200 ms, as k6's JSON output flushes. */
const json = linesOut(appender(jsonOut ?? ""), jsonOut === undefined ? 0 : 200);
const csv = csvOut && linesOut(appender(csvOut.file), csvOut.saveIntervalMs);
const writes = new Set<Promise<void>>();
/** k6's writes of InfluxDB lines: at most `concurrentWrites` at once; one that fails logged, not retried. */
function writeInflux(text: string): void {
  const { writeUrl, headers, insecure } = influxOut!;
  const write = postText(writeUrl, headers, text, insecure).catch(writeFailed);
  writes.add(write), write.then(() => writes.delete(write));
}
const influx = influxOut &&
  linesOut(writeInflux, influxOut.pushIntervalMs, () => writes.size < influxOut.concurrentWrites);
atRunEnd(() => Promise.all(writes));
const writeFailed = (err: Error) =>
  logError(`level=error msg="Couldn't write stats" error=${JSON.stringify(err.message)} output=InfluxDBv1`);

/** POSTs `body` to `url`; resolves on a 2xx answer, else rejects with the answer's text. */
export function postText(url: string, headers: Record<string, string>, body: string, insecure: boolean) {
  const options = { method: "POST", headers, rejectUnauthorized: !insecure, timeout: 10_000 };
  const { request } = process.getBuiltinModule(url.startsWith("https:") ? "node:https" : "node:http");
  return new Promise<void>((resolve, reject) => {
    const sent = request(url, options, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => text += chunk).on("end", () => {
        if (res.statusCode! < 300) resolve();
        else reject(new Error(text || `status ${res.statusCode}`));
      });
    });
    sent.on("error", reject).on("timeout", () => sent.destroy(new Error(`no answer in 10s`))).end(body);
  });
}

const described = new Map<string, { thresholds: string[]; submetrics: Submetric[] }>();

type Submetric = { name: string; suffix: string; tags: Record<string, string> };

/**
 * The run's `options.thresholds` (none under `--no-thresholds`) as k6's `Metric` lines carry them: a metric's
 * own rules and a submetric per threshold on tags (`http_req_duration{expected_response:true}` when its tag
 * is kept, as k6 makes it).
 */
export function setJsonThresholds(thresholds: unknown): void {
  if (!jsonOut) return;
  const given = typeof thresholds === "object" && thresholds || {};
  const expected = leftOut.has("expected_response")
    ? {}
    : { "http_req_duration{expected_response:true}": [] };
  for (const { key, rules, metric, inner, tags } of k6Thresholds({ ...given, ...expected })) {
    if (metric === undefined) continue;
    const entry = described.get(metric) ?? { thresholds: [], submetrics: [] };
    described.set(metric, entry);
    if (inner !== undefined) {
      entry.submetrics.push({ name: key, suffix: inner, tags: Object.fromEntries(tags) });
      continue;
    }
    for (const { threshold } of rules) if (typeof threshold === "string") entry.thresholds.push(threshold);
  }
}

const seen = new Set<string>();

/** A sample's line, without the system tags the run leaves out (`own`: a tag the script gave, kept). */
export function point(
  metric: string,
  kind: Kind,
  time: boolean,
  value: number,
  tags: Readonly<Record<string, string>>,
  own?: string,
  metadata = iterationMetadata(),
): void {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(tags).sort()) if (!leftOut.has(key) || key === own) sorted[key] = tags[key];
  const timeUs = Math.round((performance.timeOrigin + performance.now()) * 1000);
  const sample: Sample = [metric, timeUs, value, sorted, metadata];
  if (csv) csv.lines.push(csvRow(sample, csvOut!.columns, csvOut!.timeFormat));
  if (influx) influx.lines.push(influxLine(sample, influxOut!.tagsAsFields));
  if (jsonOut === undefined) return;
  if (!seen.has(metric)) {
    seen.add(metric);
    const about = described.get(metric);
    const contains = time ? "time" : "default",
      submetrics = about?.submetrics.length ? about.submetrics : null;
    const data = { name: metric, type: kind, contains, thresholds: about?.thresholds ?? [], submetrics };
    json.lines.push(JSON.stringify({ type: "Metric", data, metric }) + "\n");
  }
  const iso = new Date(timeUs / 1000).toISOString();
  const data = { time: iso, value, tags: sorted, ...metadata && { metadata } };
  json.lines.push(JSON.stringify({ metric, type: "Point", data }) + "\n");
}

/** A request's hop as http.ts sends it: method, k6's `url` tag, `res.url`, name, headers, body, tags, VU. */
export interface RequestHop {
  verb: string;
  url: string;
  place: { shown: string };
  headers: Record<string, string>;
  sent: string | Uint8Array | undefined;
  name?: string;
  tags?: Readonly<Record<string, string>>;
  expected?: ExpectedStatuses;
  vu?: Iteration & { scenario: string; s: { route(url: string): string } };
}

/** A request's points as k6's: `http_reqs`, `http_req_duration`, each phase, `http_req_failed` if judged. */
export function requestPoints(hop: RequestHop, raw: Response, durationMs: number): void {
  const { verb: method, url, name, tags, expected: own } = hop, at = hop.vu!;
  const scenario = at.scenario, meta = iterationMetadata(at);
  const expected = isExpectedStatus(raw.status, own ?? expectedStatuses);
  const fixed = { group: tags?.group ?? "", method, name: name ?? url, proto: "HTTP/1.1" };
  const all = { scenario, ...tags, ...fixed, status: String(raw.status), url: fixed.name };
  if (expected !== null) Object.assign(all, { expected_response: String(expected) });
  // k6's `ip`, the address dialled, only when systemTags names it (k6 leaves it out by default).
  if (named.has("ip")) Object.assign(all, { ip: new URL(at.s.route(url)).hostname.replace(/^\[|\]$/g, "") });
  // A name the script gives is its own tag: kept when k6's `name` is left out.
  const given = name === undefined ? undefined : "name";
  point("http_reqs", "counter", false, 1, all, given, meta);
  point("http_req_duration", "trend", true, durationMs, all, given, meta);
  const phases = phasesOf(raw);
  for (let k = 0; k < PHASES.length; k++) point(PHASES[k], "trend", true, phases[k], all, given, meta);
  if (expected !== null) point("http_req_failed", "rate", false, expected ? 0 : 1, all, given, meta);
}

/** This isolate's bytes as its last iteration ended; -1 before its first (warm-up bytes are not k6's). */
let sentBefore = -1, readBefore = 0;

export function iterationStarts(): void {
  if (sentBefore >= 0) return;
  sentBefore = ioBytes.written, readBefore = ioBytes.read;
  // The run's first iteration starts k6's seconds of `vus` points (ms after the test's start, 1 for 0).
  Atomics.compareExchange(runCounters, LOAD_START_SLOT, 0, Date.now() - testStartMs + 1);
}

/** An iteration's points as k6 writes them (for one that threw too): its bytes, duration and count. */
export function iterationPoints(durationMs: number, at: Iteration): void {
  const tags = jsonPointTags(at), meta = iterationMetadata(at);
  // The isolate's bytes since its last iteration ended: its VUs' together (k6 counts each VU's apart).
  point("data_sent", "counter", false, ioBytes.written - sentBefore, tags, undefined, meta);
  point("data_received", "counter", false, ioBytes.read - readBefore, tags, undefined, meta);
  sentBefore = ioBytes.written, readBefore = ioBytes.read;
  point("iteration_duration", "trend", true, durationMs, tags, undefined, meta);
  point("iterations", "counter", false, 1, tags, undefined, meta);
}

/** Slots of the run's counters: when its first iteration started, the last second `vus` was written for. */
const LOAD_START_SLOT = 252, VUS_SECOND_SLOT = 253;
const testStartMs = isolateFlags.testStartMs ?? Date.now();

/** k6's `vus` and `vus_max` once a second from the run's first iteration, with the run's tags. */
export function writeVusPoints(counts: () => readonly [number, number], tags: Record<string, unknown>): void {
  if (!pointsOut) return;
  const runTags = Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, String(v)]));
  const timer = setInterval(() => {
    const started = Atomics.load(runCounters, LOAD_START_SLOT),
      last = Atomics.load(runCounters, VUS_SECOND_SLOT);
    const second = started === 0 ? 0 : Math.floor((Date.now() - testStartMs - started + 1) / 1000);
    // Each second is written by one isolate of the run, the first to see it begin.
    if (second > last && Atomics.compareExchange(runCounters, VUS_SECOND_SLOT, last, second) === last) {
      const [vus, most] = counts();
      point("vus", "gauge", false, vus, runTags);
      point("vus_max", "gauge", false, most, runTags);
    }
  }, 100);
  Deno.unrefTimer(timer);
  atRunEnd(() => clearInterval(timer));
}
