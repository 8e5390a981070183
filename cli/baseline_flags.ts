/**
 * @module
 * `--baseline FILE|DIR|URL` and `--fail-on "p99 +10%"` of `run` and `attack`, and the gate's verdict table;
 * a URL baseline (a CI artifact, say) is fetched over HTTP(S) before any load.
 */
import { defined } from "../validation/defined.ts";
import { readFileCapped, readOrRefuse } from "../system/read_capped.ts";
import { redactText } from "../results/redact.ts";
import { MAX_RESULTS_FILE_BYTES, ResultsFileError } from "../results/mod.ts";
import type { ResultsFile } from "../results/mod.ts";
import type { GateResult } from "../results/baseline_gate.ts";
import { type FailOn, parseFailOnList } from "../results/fail_on.ts";
import { gateRows, METRIC_UNITS, pairingNotes } from "../report/terminal/baseline_gate.ts";
import { flag, type FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";
import { boxTable } from "../report/terminal/tables.ts";
import { concatBytes } from "../system/copy_bytes.ts";
import { statOrNull } from "../system/path_lookup.ts";
import { EXIT, exitMeaning } from "./exit_codes.ts";

export const BASELINE_FLAGS: FlagSpec[] = [
  flag("--baseline <path>", { example: "main/results.json" }, [
    "compare with a saved results.json (a dir: its results.json): per",
    "run and metric better / same (within noise) / worse, with its noise interval; <path>",
    "may be an http(s) URL giving JSON or a zip holding it (a GitHub artifact;",
    "GITHUB_TOKEN is sent to api.github.com/*.githubusercontent.com only)",
  ]),
  flag("--fail-on <rule>", { repeatable: true, example: "p99 +10%" }, [
    "with --baseline: exit 7 when a change is beyond noise AND past the",
    'rule, e.g. "p99 +10%", "rps -5%", "success -0.1pp", "dropped +1pp" (repeatable,',
    "or comma-separated); exit 8 when a rule checked no run (nothing paired, or only flagged runs);",
    'per endpoint: "p99{name:GET /json} +10%" (its latency noise needs repeats)',
  ]),
];

/** What the gate was asked to do: the baseline's path and the parsed rules. */
export interface BaselineArgs {
  baselinePath?: string;
  failOn?: FailOn[];
}

/** Reads the two flags (`run` checks them with the file's `compareWith:`/`failOn:`, see `gateArgs`). */
export function baselineArgs(flags: FlagValues): BaselineArgs {
  const baselinePath = flags.path("baseline");
  const failOn = flags.all("fail-on").flatMap(parseFailOnList);
  return defined({ baselinePath, failOn: failOn.length ? failOn : undefined });
}

/** The gate's rules and baseline, the flags' else the file's, read before any load (exit 2, not a run). */
export async function readGate(args: BaselineArgs, file: { compareWith?: string; failOn?: string[] } = {}) {
  const baselinePath = args.baselinePath ?? file.compareWith;
  const given = args.failOn ?? (file.failOn ?? []).flatMap(parseFailOnList);
  // One rule written twice (a flag beside a variable's list holding it) is judged and shown once.
  const key = (f: FailOn) => JSON.stringify([f.metric, f.limit, f.selector]);
  const failOn = given.filter((f, i) => given.findIndex((g) => key(g) === key(f)) === i);
  if (failOn.length && baselinePath === undefined) {
    throw new UsageError(
      `--fail-on compares with a baseline: give --baseline main/results.json (or compareWith: in the file)`,
    );
  }
  return { failOn, baseline: baselinePath === undefined ? undefined : await loadBaseline(baselinePath) };
}

/** The gate as asked before the load: its rules and the baseline it compares with (`readGate`). */
export type GateAsked = Awaited<ReturnType<typeof readGate>>;

/** Makes the error of a baseline: `message` after the path or URL it names. */
type Fail = (message: string, cause?: unknown) => ResultsFileError;

/** Loads the baseline (a folder, a results.json, a zip or an http(s) URL); throws `ResultsFileError`. */
export async function loadBaseline(path: string): Promise<ResultsFile> {
  if (/^https?:\/\//i.test(path)) return await loadBaselineUrl(path);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(path)?.[1];
  if (scheme) {
    throw new ResultsFileError(
      `${redactText(path)}: only http(s) URLs are fetched, not ${scheme}:; give https://... or a path`,
    );
  }
  // Not there: the read below says so with the path.
  const file = statOrNull(path)?.isDirectory ? `${path.replace(/\/+$/, "")}/results.json` : path;
  const fail: Fail = (message, cause) => new ResultsFileError(`${file}: ${message}`, { cause });
  const bytes = readOrRefuse(
    () => readFileCapped(file, MAX_RESULTS_FILE_BYTES),
    (why, { cause }) =>
      fail(`cannot read: ${why}; give a results.json written by loadlab (or a zip holding one)`, cause),
  );
  return baselineFromBytes(bytes, MAX_RESULTS_FILE_BYTES, fail);
}

/** The gate's verdicts as a table for the terminal, then one line on its outcome and the command's exit. */
export function gateTable(gate: GateResult, code: number): string {
  const rows = [["vs baseline", "metric", "baseline", "this", "verdict"]];
  for (const r of gateRows(gate)) {
    rows.push([r.key, `${r.metric} ${METRIC_UNITS[r.metric]}`, `${r.baseline}`, `${r.current}`, r.text]);
  }
  // Nothing paired: the outcome line says why (runs stopped early, or named otherwise).
  const lines = gate.groups.length ? [boxTable(rows)] : [];
  for (const [kind, keys] of pairingNotes(gate)) if (keys.length) lines.push(`${kind}: ${keys.join(", ")}`);
  lines.push(gateOutcome(gate, code));
  return lines.join("\n");
}

/** The gate's outcome (FAILED, NOT JUDGED with reasons, or passed) and the cause behind `code`. */
function gateOutcome(gate: GateResult, code: number): string {
  const own = gate.failed ? EXIT.baselineWorse : gate.unjudged.length ? EXIT.baselineUnjudged : code;
  const exit = code === own ? `exit ${code}` : `exit ${code}, not ${own}: ${exitMeaning(code)} comes first`;
  if (gate.failed) return `baseline gate: FAILED (${exit})`;
  if (gate.unjudged.length) {
    const why = gate.unjudged.map((u) => `"${u.rule}" checked no run: ${u.reason}`).join("; ");
    return `baseline gate: NOT JUDGED (${exit}): ${why}`;
  }
  return "baseline gate: no --fail-on rule fired";
}

/** How long the whole fetch (redirects, download) may take. */
const BASELINE_FETCH_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

/** Where `GITHUB_TOKEN` may be sent: GitHub's API and content hosts, over https only. */
export function tokenAllowed(url: URL): boolean {
  return url.protocol === "https:" &&
    (url.hostname === "api.github.com" || url.hostname.endsWith(".githubusercontent.com"));
}

interface FetchBaselineOptions {
  /** Default: `GITHUB_TOKEN` from the environment. */
  token?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

/** Fetches and validates the baseline at `url`; throws `ResultsFileError` naming the URL and the fix. */
export async function loadBaselineUrl(url: string, opts: FetchBaselineOptions = {}): Promise<ResultsFile> {
  const shown = redactText(url);
  const fail: Fail = (message, cause) => new ResultsFileError(`${shown}: ${message}`, { cause });
  let start: URL;
  try {
    start = new URL(url.endsWith("/") ? `${url}results.json` : url);
  } catch (err) {
    throw fail("not a URL; give https://host/path/results.json or a zip of it", err);
  }
  const maxBytes = opts.maxBytes ?? MAX_RESULTS_FILE_BYTES;
  const timeoutMs = opts.timeoutMs ?? BASELINE_FETCH_TIMEOUT_MS;
  const token = opts.token ?? Deno.env.get("GITHUB_TOKEN");
  let bytes: Uint8Array;
  try {
    bytes = await download(start, { token, maxBytes, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    if (err instanceof FetchProblem) throw fail(err.message, err);
    if (err instanceof DOMException && err.name === "TimeoutError") {
      const late = `no complete answer within ${timeoutMs / 1000} s`;
      throw fail(`${late}; check the URL and the network, or download it and give the file`, err);
    }
    throw fail(`cannot fetch: ${(err as Error).message}; check the URL and the network`, err);
  }
  return baselineFromBytes(bytes, maxBytes, fail);
}

/** The results file in `bytes`: a results.json, or the top-most one in a zip. */
async function baselineFromBytes(bytes: Uint8Array, maxBytes: number, fail: Fail): Promise<ResultsFile> {
  const text = isZip(bytes) ? await resultsFromZip(bytes, maxBytes, fail) : new TextDecoder().decode(bytes);
  const page = text.trimStart().startsWith("<")
    ? "; it is HTML: give the results.json beside report.html, or an artifact's API URL (.../ID/zip)"
    : "";
  const notJson = (why: string) => `neither a results.json nor a zip holding one (not JSON: ${why})${page}`;
  return await (await import("../results/io.ts")).resultsFromText(text, fail, notJson);
}

/** A failure whose message is already the one line to print after the URL. */
export class FetchProblem extends Error {
  override name = "FetchProblem";
}

/** GETs `start`, following redirects by hand so the token goes only where `tokenAllowed` says. */
async function download(
  start: URL,
  opts: { token?: string; maxBytes: number; signal: AbortSignal },
): Promise<Uint8Array> {
  let url = start;
  for (let hop = 0;; hop++) {
    const headers = new Headers({
      "user-agent": "loadlab",
      accept: "application/json, application/zip, */*",
      // fetch would inflate ahead of the cap: ask for identity, and let `readCapped` inflate under the cap.
      "accept-encoding": "identity",
    });
    if (opts.token && tokenAllowed(url)) headers.set("authorization", `Bearer ${opts.token}`);
    const response = await fetch(url, { headers, redirect: "manual", signal: opts.signal });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new FetchProblem(`more than ${MAX_REDIRECTS} redirects`);
      const next = new URL(location, url);
      if (next.protocol !== "https:" && !(next.protocol === "http:" && url.protocol === "http:")) {
        throw new FetchProblem(`redirected to ${next.protocol} (only https, or http from http, is followed)`);
      }
      url = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new FetchProblem(httpAdvice(response.status, url, opts.token !== undefined));
    }
    return await readCapped(response, opts.maxBytes);
  }
}

/** What an HTTP error most likely means, and what to do. */
function httpAdvice(status: number, url: URL, hadToken: boolean): string {
  const github = tokenAllowed(url);
  if (status === 401 || status === 403) {
    if (!github) {
      return `HTTP ${status}: the server wants credentials; GITHUB_TOKEN is sent only to api.github.com and ` +
        `*.githubusercontent.com over https, so download the file and give its path`;
    }
    return hadToken
      ? `HTTP ${status}: GITHUB_TOKEN was refused; it needs read access to the repository's Actions artifacts (actions: read)`
      : `HTTP ${status}: set GITHUB_TOKEN to a token with read access to the repository's Actions artifacts (actions: read)`;
  }
  if (status === 404 || status === 410) {
    const hint = github && !hadToken ? "; for a private repository also set GITHUB_TOKEN" : "";
    return `HTTP ${status}: nothing there (an expired artifact, or a wrong id or path)${hint}`;
  }
  const why = status >= 500 ? ": the server failed; try again later" : "; check the URL";
  return `HTTP ${status}${why}, or download the file and give its path`;
}

/** The body, decoded, refused past `maxBytes` decoded bytes, each chunk counted before the next inflates. */
export async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new FetchProblem(`larger than ${maxBytes} bytes, the most a results file may be`);
  if (Number(response.headers.get("content-length") ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const body = decodedBody(response);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

/** Pieces of a compressed body fed to the inflater: one inflates to at most ~1032x this (zeros). */
const INFLATE_PIECE_BYTES = 16 * 1024;

/** The body as sent, inflated when its Content-Encoding is gzip or deflate, in bounded pieces. */
function decodedBody(response: Response): ReadableStream<Uint8Array> | null {
  const encoding = (response.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "" || response.body === null) return response.body;
  const format = ({ gzip: "gzip", "x-gzip": "gzip", deflate: "deflate" } as const)[encoding as "gzip"];
  if (format === undefined) {
    response.body.cancel();
    throw new FetchProblem(
      `answered in Content-Encoding ${encoding}, which loadlab does not decode; serve it plain or gzip`,
    );
  }
  const pieces = new TransformStream<Uint8Array<ArrayBuffer>, BufferSource>({
    transform(chunk, out) {
      for (let at = 0; at < chunk.length; at += INFLATE_PIECE_BYTES) {
        out.enqueue(chunk.slice(at, at + INFLATE_PIECE_BYTES));
      }
    },
  });
  return response.body.pipeThrough(pieces).pipeThrough(new DecompressionStream(format));
}

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Entries a baseline zip may hold: an artifact of out/ has a handful to a few thousand. */
const MAX_ZIP_ENTRIES = 100_000;

class TooManyEntries extends Error {}

/** The text of the top-most `results.json` in a zip (GitHub's artifact download); fflate loads only here. */
async function resultsFromZip(bytes: Uint8Array, maxBytes: number, fail: Fail): Promise<string> {
  const { unzipSync } = await import("fflate");
  const names: string[] = [];
  const candidates: string[] = [];
  let oversize = false;
  const unzip = (filter: (file: { name: string; originalSize: number }) => boolean) => {
    try {
      return unzipSync(bytes, { filter });
    } catch (err) {
      if (err instanceof TooManyEntries) {
        throw fail(`a zip of more than ${MAX_ZIP_ENTRIES} entries; upload out/ (or results.json alone)`, err);
      }
      throw fail(`a zip that cannot be read (${(err as Error).message}); download it again`, err);
    }
  };
  let entries = 0;
  unzip((file) => {
    // The entry count is the zip's own claim (zip64: billions in a few bytes); it is walked, so bound it.
    if (++entries > MAX_ZIP_ENTRIES) throw new TooManyEntries();
    if (names.length <= 5) names.push(file.name);
    const wanted = file.name === "results.json" || file.name.endsWith("/results.json");
    if (wanted && file.originalSize > maxBytes) oversize = true;
    if (wanted && file.originalSize <= maxBytes) candidates.push(file.name);
    return false;
  });
  if (candidates.length === 0) {
    if (oversize) {
      throw fail(`its results.json is larger than ${maxBytes} bytes, the most a results file may be`);
    }
    const listed = names.slice(0, 5).join(", ") + (names.length > 5 ? ", ..." : "");
    throw fail(`the zip holds no results.json (it holds: ${listed || "nothing"}); upload out/results.json`);
  }
  // The top-most one: an artifact of `out/` holds results.json at its root.
  const name = candidates.sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b))[0];
  let taken = false;
  const data = unzip((file) => {
    const take = !taken && file.name === name && file.originalSize <= maxBytes;
    taken ||= take;
    return take;
  })[name];
  if (data.length > maxBytes) throw fail(`its results.json is larger than ${maxBytes} bytes`);
  return new TextDecoder().decode(data);
}
