/**
 * @module
 * A gRPC run in ghz's report shapes (`-O json|pretty|summary|csv`), latency and CSV from its request log.
 */
import type { RunResult } from "../../mod.ts";
import { MAX_MESSAGE_CHARS_PER_KIND, OTHER_MESSAGES, statusKey, statusSlotOf } from "../../schema/keys.ts";
import { visibleLine } from "../../../validation/terminal_text.ts";
import { modelFactsOf } from "../../load_models.ts";
import { nearestRank } from "../../stats.ts";

export const GHZ_FORMATS = ["summary", "json", "pretty", "csv", "influx-summary", "influx-details"] as const;
export type GhzFormat = (typeof GHZ_FORMATS)[number];

/** The status grpc-go gives a call that failed without a status of the server's, by loadlab's kind. */
const UNANSWERED: Record<string, string> = {
  timeout: "DeadlineExceeded",
  "grpc-protocol": "Internal",
  "grpc-too-big": "ResourceExhausted",
  "h2-protocol": "Internal",
  unfinished: "Canceled",
};

/** The ghz status name of a status-code key or error kind ("200", "grpc DEADLINE_EXCEEDED", "connect"). */
function ghzStatus(key: string): string {
  if (key === "200") return "OK";
  // grpc-go's `codes.Code.String()`: DEADLINE_EXCEEDED as DeadlineExceeded, CANCELLED as Canceled.
  if (!key.startsWith("grpc ")) return UNANSWERED[key] ?? "Unavailable";
  const name = key.slice(5).toLowerCase().replace(/(?:^|_)(.)/g, (_, c: string) => c.toUpperCase());
  return name === "Cancelled" ? "Canceled" : name;
}

const NS_PER_MS = 1e6;

/** Calls that ended otherwise than OK, under one status and error text (ghz's `rpc error: ...`). */
type Failure = { key: string; status: string; error: string; n: number };

/**
 * Each outcome of `run` but OK, as ghz counts it; a count ended early for want of a connection holds the
 * unsent calls as ghz does, failed as the sent ones.
 */
function failuresOf(run: RunResult): Failure[] {
  const counts: Array<[string, number]> = [
    ...Object.entries(run.statusCodes).filter(([key]) => key !== "200") as Array<[string, number]>,
    ...Object.entries(run.errors).map(([kind, n]) => [kind, n ?? 0] as [string, number]),
    ["unfinished", run.unfinished ?? 0],
  ];
  const failures: Failure[] = [];
  for (const [key, n] of counts) {
    if (n <= 0) continue;
    const failure = (message: string, count: number) => {
      const [status, words] = grpcGoWords(key, message);
      failures.push({ key, status, error: `rpc error: code = ${status} desc = ${words}`, n: count });
    };
    let named = 0;
    // A message never names more calls than its status holds (--skipFirst leaves some out).
    for (const [message, count] of Object.entries(run.errorMessages[key] ?? {})) {
      const c = Math.min(count, n - named);
      if (c > 0) failure(message, c);
      named += c;
    }
    if (named < n) failure(key, n - named);
  }
  const planned = modelFactsOf(String(run.config.model))?.counted && !run.incomplete && !run.abortedBy
    ? Number(run.config.requests)
    : 0;
  const ended = failures.reduce((a, f) => a + f.n, run.statusCodes["200"] ?? 0);
  // A call whose connection could not be made: grpc-go fails each call on it alike.
  const unconnected = failures.find((f) => f.key === "connect" || f.key === "tls");
  if (unconnected && planned > ended) unconnected.n += planned - ended;
  return failures;
}

/** The words of a status's calls whose messages came past the ones kept (ghz keeps each). */
const PAST_KEPT = `(other): messages past the ${
  MAX_MESSAGE_CHARS_PER_KIND / 1024
} KiB of text loadlab keeps a status`;

/** grpc-go's status and words for a call of `key` that ended with loadlab's `message`. */
function grpcGoWords(key: string, message: string): [string, string] {
  if (message === OTHER_MESSAGES) return [ghzStatus(key), PAST_KEPT];
  const [pattern, given, template] = GRPC_GO_WORDS.find(([p]) => p.test(message)) ?? [/^/, "", null];
  const group = pattern.exec(message)!;
  return [
    given.replace("$1", group[1]) || ghzStatus(key),
    template?.replace(/\$(\d|T)/g, (_, k) => k === "T" ? GO_TEXT[group[1]] ?? group[2] : group[k] ?? "") ??
      clientWords(key, message),
  ];
}

/** grpc-go's client's words for a call that got no status of the server's (`message` is loadlab's). */
function clientWords(kind: string, message: string): string {
  // A status without grpc-message (loadlab names its code): grpc-go's desc is that empty message.
  if (kind === `grpc ${message}`) return "";
  if (kind === "timeout") return "context deadline exceeded";
  if (kind === "unfinished") return "grpc: the client connection is closing";
  const refused = /^refused: .* connecting to (\S+)$/.exec(message)?.[1];
  if (kind === "connect" && refused) return `${DIAL} ${refused}: connect: connection refused"`;
  const tls = TLS_WORDS.find(([words]) => kind === "tls" && words.test(message))?.[1] ?? x509Names(message);
  return tls ? `connection error: desc = "transport: authentication handshake failed: ${tls}"` : message;
}

const DIAL = `connection error: desc = "transport: Error while dialing dial tcp`;
const RST = "stream terminated by RST_STREAM with error code: $1";
const INFLATE = "grpc: failed to decompress the received message ";
/** A head that is not gRPC's: Go's text of its HTTP status (`$T`), its code, its content-type. */
const HTTP = "$T: HTTP status code $1; transport: ";
/** Go's net/http text of an HTTP status where it is not the one loadlab's message carries (RFC 9110's). */
const GO_TEXT: Record<string, string> = {
  413: "Request Entity Too Large",
  414: "Request URI Too Long",
  416: "Requested Range Not Satisfiable",
  418: "I'm a teapot",
  509: "",
};
const UNEXPECTED = `${HTTP}received the unexpected content-type $3`;
/** grpc-go's status ("" keeps the kind's) and words (`$1`: a group) where loadlab's message differs. */
const GRPC_GO_WORDS: Array<[RegExp, string, string]> = [
  [/^RST_STREAM (REFUSED_STREAM)/, "Unavailable", RST],
  [/^RST_STREAM (CANCEL)/, "Canceled", RST],
  [/^RST_STREAM (FLOW_CONTROL_ERROR|ENHANCE_YOUR_CALM)/, "ResourceExhausted", RST],
  [/^RST_STREAM (INADEQUATE_SECURITY)/, "PermissionDenied", RST],
  [/^RST_STREAM (\w+)/, "Internal", RST],
  [/compressed flag is .*: (\d+)$/, "", "grpc: received unexpected payload format $1"],
  [/^a compressed message without /, "", "grpc: compressed flag set with identity or empty encoding"],
  // A code gRPC has no name for: grpc-go 1.34's `codes.Code(17).String()`.
  [/^grpc-status (\d+)(?:: )?([^]*)$/, "Code($1)", "$2"],
  [/not a number: (".*")$/, "", "transport: malformed grpc-status: strconv.Atoi: parsing $1: invalid syntax"],
  [/^the stream ended without trailers/, "", "server closed the stream without sending trailers"],
  [/^the stream ended inside a message/, "", "unexpected EOF"],
  // grpc-go 1.34 reads gRPC's content-type under any HTTP status by its trailers alone.
  [/trailers without grpc-status \(grpc-message "(.*)"\)$/, "Unknown", "$1"],
  [/^not gRPC: HTTP status (200) \((.*)\), content-type (.*)$/, "Unknown", UNEXPECTED],
  [/^not gRPC: HTTP status (\d+) \((.*)\), content-type none$/, "", `${HTTP}missing content-type field`],
  [/^not gRPC: HTTP status (\d+) \((.*)\), content-type (.*)$/, "", UNEXPECTED],
  [/more than one message$/, "Unknown", "grpc: client streaming protocol violation: get <nil>, want <EOF>"],
  [/compressed with (".*")/, "Unimplemented", "grpc: Decompressor is not installed for grpc-encoding $1"],
  // Go reads a gzip header of 10 bytes before it checks it.
  [/^a compressed message of (\d |.*unexpected end of file)/, "", `${INFLATE}unexpected EOF`],
  [/^a compressed message of \d+ bytes that is not gzip/, "", `${INFLATE}gzip: invalid header`],
  [/corrupt before deflate byte (\d+)/, "", `${INFLATE}flate: corrupt input before offset $1`],
  // A call refused unprocessed by a GOAWAY each time it went: grpc-go's call on a draining connection.
  [/^GOAWAY \w+: refused \d+ times/, "", "the connection is draining"],
  [/^the server closed the connection before its SETTINGS$/, "", "connection closed"],
  [/^the server closed the connection/, "", "transport is closing"],
  [/^address (.*): missing port in address$/, "", `${DIAL}: address $1: missing port in address"`],
];

/** A TLS failure as loadlab words it, and as Go's crypto/tls does. */
const TLS_WORDS: Array<[RegExp, string]> = [
  [/^tls unknown-ca/, "tls: failed to verify certificate: x509: certificate signed by unknown authority"],
  [/wrong version number/, "tls: first record does not look like a TLS handshake"],
];

/** Go's words for loadlab's `names A, B, not HOST`: the certificate's IP names for an IP, else DNS names. */
function x509Names(message: string): string {
  const [, names = "", host = ""] = /^tls hostname: .* names (.*), not (\S+) \(/.exec(message) ?? [];
  const ip = (name: string) => /^[\d.]+$|:/.test(name);
  const valid = names.split(", ").filter((n) => ip(n) === ip(host)).join(", ");
  return valid && `tls: failed to verify certificate: x509: certificate is valid for ${valid}, not ${host}`;
}

/** ghz's labels of its report beside its options (`--skipFirst`, `--name` among them): `--tags`. */
export interface GhzReportOptions {
  tags?: Record<string, string>;
  /** `--duration-stop ignore`: the calls cut at the end are no calls of the report. */
  ignoreCut?: boolean;
  /** ghz's report's `options` as ghz writes them (`loadlab ghz`); else those of them the run has. */
  options?: Record<string, unknown>;
}

/** A call of a request log: its status key ("0": no answer), its start and end in µs from the run's. */
type Call = { key: string; startUs: number; endUs: number; us: number };

/** Each call of a request log (`code;startUs;endUs;connection`), in its order. */
export function loggedCalls(log: string): Call[] {
  const calls: Call[] = [];
  for (const line of log.split("\n")) {
    const [code, startUs, endUs] = line.split(";").map(Number);
    const key = statusKey(statusSlotOf(code));
    if (endUs >= startUs) calls.push({ key, startUs, endUs, us: endUs - startUs });
  }
  return calls;
}

/**
 * ghz's latency fields of the calls in `log`, by ghz's rules: the average over every call, the rest over the
 * OK ones (all with `--count-errors`); a percentile is the call at rank ceil(p% of n).
 */
function ghzLatency(calls: Call[], countErrors = false) {
  const ns = (us: number) => Math.round(us * 1000);
  const average = calls.length > 0 ? ns(calls.reduce((a, c) => a + c.us, 0) / calls.length) : 0;
  const us = calls.filter((c) => countErrors || c.key === "200").map((c) => c.us).sort((a, b) => a - b);
  if (us.length === 0) return { average, fastest: 0, slowest: 0, latencyDistribution: null, histogram: null };
  const [fastUs, slowUs] = [us[0], us[us.length - 1]];
  const latencyDistribution = [10, 25, 50, 75, 90, 95, 99].map((percentage) => ({
    percentage,
    latency: ns(nearestRank(us, percentage)),
  }));
  const marks = Array.from({ length: 11 }, (_, i) => i === 10 ? slowUs : fastUs + (slowUs - fastUs) / 10 * i);
  const hits = marks.map(() => 0);
  for (let i = 0, at = 0; i < us.length; i++) {
    while (us[i] > marks[at]) at++;
    hits[at]++;
  }
  const histogram = marks.map((m, i) => ({ mark: m / 1e6, count: hits[i], frequency: hits[i] / us.length }));
  return { average, fastest: ns(fastUs), slowest: ns(slowUs), latencyDistribution, histogram };
}

/** ghz's report of `run` and the calls of its request log as its JSON object (durations in nanoseconds). */
export function ghzReport(run: RunResult, date: Date, labels: GhzReportOptions = {}, calls: Call[] = []) {
  const statusCodeDistribution: Record<string, number> = {};
  const errorDistribution: Record<string, number> = {};
  const add = (into: Record<string, number>, key: string, n: number) => into[key] = (into[key] ?? 0) + n;
  if ((run.statusCodes["200"] ?? 0) > 0) statusCodeDistribution.OK = run.statusCodes["200"];
  for (const f of failuresOf(run)) {
    add(statusCodeDistribution, f.status, f.n);
    add(errorDistribution, f.error, f.n);
  }
  const count = Object.values(statusCodeDistribution).reduce((a, b) => a + b, 0);
  const options = ghzOptions(run, labels), countErrors = options["count-errors"] === true;
  const { average, fastest, slowest, latencyDistribution, histogram } = ghzLatency(calls, countErrors);
  // ghz's total runs until its last call ends: past -z's end under --duration-stop wait.
  const totalSec = calls.reduce((most, c) => Math.max(most, c.endUs / 1e6), run.durationSec);
  return {
    ...(options.name ? { name: String(options.name) } : {}),
    date: date.toISOString().replace(/\.\d+Z$/, "Z"),
    endReason: run.abortedBy || run.incomplete
      ? "cancel"
      : modelFactsOf(String(run.config.model))?.counted || (labels.options && !options.duration)
      ? "normal"
      : "timeout",
    options,
    count,
    total: Math.round(totalSec * 1e9),
    average,
    fastest,
    slowest,
    rps: totalSec > 0 ? count / totalSec : 0,
    errorDistribution,
    statusCodeDistribution,
    latencyDistribution,
    histogram,
    details: ghzDetails(run, calls),
    ...(labels.tags && Object.keys(labels.tags).length > 0 ? { tags: labels.tags } : {}),
  };
}

/** `value` as Go writes a map of it: each object's keys in byte order, at every depth. */
export function goMaps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(goMaps);
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value).sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
  return Object.fromEntries(keys.map((k) => [k, goMaps((value as Record<string, unknown>)[k])]));
}

/** The calls ghz lists at most in its JSON's `details`, as its reporter keeps them. */
const MAX_DETAILS = 1_000_000;

/** ghz's `details`: each call in the order it ended, at its end (RFC 3339 to the µs); none: null. */
function ghzDetails(run: RunResult, logged: Call[]) {
  const t0Us = Date.parse(run.startedAt) * 1000;
  const endUs = (c: { startUs?: number; us?: number }) =>
    t0Us + (c.startUs ?? run.durationSec * 1e6) + (c.us ?? 0);
  const calls = ghzCalls(run, logged).sort((a, b) => endUs(a) - endUs(b)).slice(0, MAX_DETAILS);
  return calls.length === 0 ? null : calls.map((c) => {
    // Go's RFC 3339 to the µs, the fraction's trailing zeros dropped (and its dot when nothing is left).
    const us = Math.floor(endUs(c)), fraction = `.${String(us % 1e6).padStart(6, "0")}`.replace(/\.?0+$/, "");
    const timestamp = `${new Date(us / 1000).toISOString().slice(0, 19)}${fraction}Z`;
    return { timestamp, latency: Math.round((c.us ?? 0) * 1000), error: c.error, status: c.status };
  });
}

function ghzOptions(run: RunResult, labels: GhzReportOptions): Record<string, unknown> {
  if (labels.options) return labels.options;
  const c = run.config as Record<string, unknown>;
  const connections = typeof c.connections === "number" ? c.connections : undefined;
  const streams = typeof c.streams === "number" ? c.streams : 1;
  const counted = modelFactsOf(String(c.model))?.counted ?? false;
  return {
    call: (c.requestMix as Array<{ name?: string }> | undefined)?.[0]?.name,
    host: new URL(String(c.url)).host,
    insecure: String(c.url).startsWith("http:"),
    concurrency: c.concurrency ?? (connections === undefined ? undefined : connections * streams),
    total: counted ? c.requests : undefined,
    connections,
    duration: typeof c.durationMs === "number" && !counted ? c.durationMs * NS_PER_MS : undefined,
    timeout: typeof c.timeoutMs === "number" ? c.timeoutMs * NS_PER_MS : undefined,
    CPUs: c.workers,
  };
}

/** ghz's `-O` output of `run`: JSON (`pretty` indented), summary text, or CSV of request `log`'s calls. */
export function ghzOutput(
  run: RunResult,
  format: GhzFormat,
  date = new Date(),
  log = "",
  labels: GhzReportOptions = {},
): string {
  let calls = loggedCalls(log);
  // A host without its port: grpc-go dials no address, each call failing at it (loadlab's dial, refused).
  const unported = /^(\[[\da-f:.]+\]|[^\s/:[\]]+)$/i.exec(String(labels.options?.host))?.[0];
  const connect = { [`address ${unported}: missing port in address`]: run.errors.connect ?? 0 };
  if (unported) run = { ...run, errorMessages: { ...run.errorMessages, connect } };
  if (labels.ignoreCut) [run, calls] = [{ ...run, unfinished: 0 }, withoutCut(calls, run.unfinished ?? 0)];
  if (labels.options?.skipFirst) [run, calls] = skipFirst(run, calls, Number(labels.options.skipFirst));
  if (format === "csv") return ghzCsv(run, calls);
  if (format.startsWith("influx")) return ghzInflux(run, format, date, calls, labels);
  const report = ghzReport(run, date, labels, calls);
  if (format === "summary") return ghzSummary(report);
  // Go's JSON of a map: its keys sorted (its summary ranges over them unsorted).
  const { errorDistribution, statusCodeDistribution, tags } = report;
  const json = { ...report, ...goMaps({ errorDistribution, statusCodeDistribution, tags }) as object };
  return format === "json" ? JSON.stringify(json) : JSON.stringify(json, null, 2);
}

/** The calls without the `n` with no answer that ended last: those the run's end cut. */
function withoutCut(calls: Call[], n: number): Call[] {
  const cut = new Set(calls.filter((c) => c.key === "0").sort((a, b) => b.endUs - a.endUs).slice(0, n));
  return calls.filter((c) => !cut.has(c));
}

/** `run` and its calls without the first `n` to end, as ghz's `--skipFirst` leaves them out. */
function skipFirst(run: RunResult, calls: Call[], n: number): [RunResult, Call[]] {
  const byEnd = calls.toSorted((a, b) => a.endUs - b.endUs);
  const [statusCodes, errors] = [{ ...run.statusCodes }, { ...run.errors }];
  const errorMessages = { ...run.errorMessages };
  for (const { key } of byEnd.slice(0, n)) {
    // A call with no answer leaves an error kind (which line had which kind is not kept).
    const [counts, k] = key === "0"
      ? [errors, Object.keys(errors).find((e) => errors[e]! > 0) ?? ""]
      : [statusCodes, key];
    if ((counts[k] ?? 0) > 0) counts[k]!--;
    // Its message the first its kind got, as the messages are kept in the order they came.
    const messages = errorMessages[k] = { ...errorMessages[k] };
    const first = Object.keys(messages)[0];
    if (first !== undefined && --messages[first] === 0) delete messages[first];
  }
  const left = Math.min(n, calls.length);
  return [{ ...run, statusCodes, errors, errorMessages, requests: run.requests - left }, byEnd.slice(n)];
}

/**
 * Each call as ghz lists it: answered ones from the request log, then unanswered ones; a kind's messages go
 * to its calls as many times as each came (which call had which is not logged), past them the kind.
 */
function ghzCalls(run: RunResult, logged: Call[]) {
  // Each key's call errors and the next to hand out (the last stays, for every call past the others).
  const errorsOf = new Map<string, { each: [string, string][]; next: number }>();
  const callErrors = (key: string) => {
    const words = ([status, desc]: string[]): [string, string] => [
      status,
      status === "OK" ? "" : visibleLine(`rpc error: code = ${status} desc = ${desc}`),
    ];
    const messages = Object.entries(run.errorMessages[key] ?? {});
    const each: [string, string][] = messages.flatMap(([m, n]) => Array(n).fill(words(grpcGoWords(key, m))));
    const last = words(messages.length === 1 ? grpcGoWords(key, messages[0][0]) : [ghzStatus(key), key]);
    return { each: [...each, last], next: 0 };
  };
  const timed = logged.filter((c) => c.key === "0");
  let nextTimed = 0;
  const calls: Array<{ startUs?: number; us?: number; status: string; error: string }> = logged
    .filter((c) => c.key !== "0").map(({ key, startUs, us }) => {
      const left = errorsOf.get(key) ?? errorsOf.set(key, callErrors(key)).get(key)!;
      const [status, error] = left.each[Math.min(left.next++, left.each.length - 1)];
      return { startUs, us, status, error };
    });
  for (const f of failuresOf(run)) {
    if (f.key in run.statusCodes) continue;
    for (let k = 0; k < f.n; k++) {
      calls.push({ ...timed[nextTimed++], status: f.status, error: visibleLine(f.error) });
    }
  }
  return calls;
}

/** ghz's CSV: `duration (ms),status,error` and a row per call. */
function ghzCsv(run: RunResult, calls: Call[]): string {
  const rows = ghzCalls(run, calls).map((c) =>
    `${c.us === undefined ? "" : (c.us / 1000).toFixed(2)},${c.status},${c.error}`
  );
  return ["", "duration (ms),status,error", ...rows, ""].join("\n");
}

/** ghz's InfluxDB line protocol: a `ghz_run` line at the report's date, or a `ghz_detail` line per call. */
function ghzInflux(run: RunResult, format: GhzFormat, date: Date, calls: Call[], labels: GhzReportOptions) {
  const tags = influxTags(ghzOptions(run, labels), labels);
  if (format === "influx-details") {
    const t0Us = Date.parse(run.startedAt) * 1000;
    return ghzCalls(run, calls).map((c) =>
      `ghz_detail,${tags},hasError=${c.error !== ""} latency=${Math.round((c.us ?? 0) * 1000)},error="${
        c.error.replace(/([ ,=])/g, "\\$1")
      }",status="${c.status}" ${Math.round(t0Us + (c.startUs ?? 0))}000\n`
    ).join("");
  }
  const r = ghzReport(run, date, labels, calls);
  const errors = Object.values(r.errorDistribution).reduce((a, b) => a + b, 0);
  const at = (p: number) => r.latencyDistribution?.find((d) => d.percentage === p)?.latency;
  const { count, total, average, fastest, slowest } = r;
  const times = Object.entries({ count, total, average, fastest, slowest }).map(([k, v]) => `${k}=${v}`);
  const median = r.latencyDistribution ? [`median=${at(50)}`, `p95=${at(95)}`] : [];
  const fields = [...times, `rps=${r.rps.toFixed(2)}`, ...median, `errors=${errors}`].join(",");
  return `ghz_run,${tags},errors=${errors},has_errors=${errors > 0} ${fields} ${date.getTime()}000000`;
}

/** The keys of a schedule's options (`load-` or `concurrency-`), in ghz's order. */
export const SCHEDULE_KEYS = ["schedule", "start", "end", "step", "step-duration", "max-duration"];

/** ghz's InfluxDB tags of its report's options (loadlab attack's: those of them it has). */
export function influxTags(o: Record<string, unknown>, { tags }: GhzReportOptions): string {
  const escape = (text: string) => text.replace(/([ ,=])/g, "\\$1");
  const json = (value: unknown) => escape(JSON.stringify(JSON.stringify(value ?? null)));
  const s = (key: string) => Number(o[key] ?? 0) / 1e9;
  const value = (k: string) => /duration$/.test(k) ? goDuration(Number(o[k])) : o[k];
  const schedule = (kind: string, flat: string) =>
    (o[`${kind}-schedule`] ?? "const") === "const"
      ? [flat]
      : SCHEDULE_KEYS.map((k) => `${kind}-${k}=${value(`${kind}-${k}`)}`);
  return [
    ...(o.name ? [`name="${escape(String(o.name).trim())}"`] : []),
    ...(o.proto ? [`proto="${o.proto}"`] : o.protoset ? [`Protoset="${o.protoset}"`] : []),
    `call="${o.call}",host="${o.host}",n=${o.total ?? 0x7fff_ffff}`,
    ...schedule("concurrency", `c=${o.concurrency ?? 0}`),
    ...schedule("load", `rps=${o.rps ?? 0}`),
    `z=${o.duration ?? 0},timeout=${s("timeout")},dial_timeout=${s("dial-timeout")}`,
    `keepalive=${s("keepalive")},data=${json(o.data)}`,
    `metadata=${o.metadata === undefined ? '""' : json(o.metadata)}`,
    `tags=${tags && Object.keys(tags).length > 0 ? json(goMaps(tags)) : '""'}`,
  ].join(",");
}

/** Go's text of a duration of `ns` (time.Duration's String): 0s, 300ms, 1.5s, 1m30s. */
function goDuration(ns: number): string {
  if (ns < 1e9) return ns === 0 ? "0s" : ns < 1e3 ? `${ns}ns` : ns < 1e6 ? `${ns / 1e3}µs` : `${ns / 1e6}ms`;
  const [h, m] = [Math.floor(ns / 3.6e12), Math.floor((ns % 3.6e12) / 6e10)];
  return `${h ? `${h}h` : ""}${h || m ? `${m}m` : ""}${(ns % 6e10) / 1e9}s`;
}

/** ghz's duration text: ns under 10 µs, else ms, else s. */
function nanoUnit(ns: number): string {
  if (ns < 10_000) return `${ns} ns`;
  const ms = ns / NS_PER_MS;
  return ms < 1000 ? `${ms.toFixed(2)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function ghzSummary(r: ReturnType<typeof ghzReport>): string {
  const most = Math.max(1, ...(r.histogram ?? []).map((b) => b.count));
  // Go's tabwriter: each cell padded to its column's widest and 3 spaces.
  const table = (entries: Array<[string, string]>) => {
    const [w, v] = [0, 1].map((k) => Math.max(0, ...entries.map((e) => e[k].length)));
    return entries.map(([a, b]) => `  ${a.padEnd(w)}   ${b.padEnd(v)}   `).join("\n");
  };
  return [
    "",
    "Summary:",
    ...(r.name ? [`  Name:\t\t${r.name}`] : []),
    `  Count:\t${r.count}`,
    `  Total:\t${nanoUnit(r.total)}`,
    `  Slowest:\t${nanoUnit(r.slowest)}`,
    `  Fastest:\t${nanoUnit(r.fastest)}`,
    `  Average:\t${nanoUnit(r.average)}`,
    `  Requests/sec:\t${r.rps.toFixed(2)}`,
    "",
    "Response time histogram:",
    ...(r.histogram ?? []).map((b) =>
      `  ${(b.mark * 1000).toFixed(3)} [${b.count}]\t|${"∎".repeat(Math.round((b.count * 40) / most))}`
    ),
    "",
    "Latency distribution:",
    ...(r.latencyDistribution ?? []).map((d) => `  ${d.percentage} % in ${nanoUnit(d.latency)} `),
    "",
    "Status code distribution:",
    table(Object.entries(r.statusCodeDistribution).map(([s, n]) => [`[${s}]`, `${n} responses`])),
    ...(Object.keys(r.errorDistribution).length > 0
      ? ["", "Error distribution:", table(Object.entries(r.errorDistribution).map(([e, n]) => [`[${n}]`, e]))]
      : []),
    "",
  ].join("\n");
}
