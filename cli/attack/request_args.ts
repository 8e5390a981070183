/**
 * @module
 * `-m`, `-H`, `-T`, `-b`/`--body-file` and `--mix` as the request mix of an attack, and `--data-file`: rows
 * filling the `{{ name }}` placeholders of its requests.
 */
import type { AttackConfigInput } from "../../runner/config.ts";
import { UsageError } from "../usage_error.ts";
import { hasPlaceholder, placeholdersOf } from "../../runner/http/template.ts";
import { MAX_BODY_BYTES } from "../../runner/http/fill_values.ts";
import { headerNameProblem, headerValueProblem } from "../../runner/request_rules.ts";
import { shownHeader } from "../../results/redact.ts";
import { readFileCapped, readOrRefuse } from "../../system/read_capped.ts";
import { basename } from "node:path";
import { DECIMAL, type FlagValues, optionFlags, optionValues } from "../flag_values.ts";
import type { DataSpec } from "../../runner/session_schema.ts";
import { DATA_OPTIONS, DataFileError, dataSourceSchema, readDataFile } from "../../scenarios/data_sources.ts";

/** One request of the mix before defaults are filled by the config schema. */
export type RequestInput = NonNullable<AttackConfigInput["requestMix"]>[number];

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const METHOD = /^[A-Za-z]+$/;
const NO_BODY_METHODS = new Set(["GET", "HEAD"]);

/** The flags' request mix for `url`; its placeholders (paths, headers, bodies) name columns of `data`. */
export function requestMixOf(flags: FlagValues, url: URL, data?: DataSpec): RequestInput[] {
  const mix = buildRequestMix(flags, url);
  const decoder = new TextDecoder();
  const pathFlag = flags.has("mix") ? "--mix" : "url";
  checkPlaceholderNames(
    mix.flatMap((r) => [
      [pathFlag, r.path ?? ""] as const,
      ...(r.headers ?? []).map(([name, value]) => ["-H", `${name}: ${value}`] as const),
      ...(r.body instanceof Uint8Array ? [["-b", decoder.decode(r.body)] as const] : []),
    ]),
    data,
  );
  return mix;
}

/** Builds the request mix; throws `UsageError` naming the flag at fault. */
function buildRequestMix(flags: FlagValues, url: URL): RequestInput[] {
  const method = flags.text("method"), contentType = flags.nonEmpty("content-type");
  const bodyText = flags.text("body"), bodyFile = flags.path("body-file"), entries = flags.all("mix");
  const headers = flags.all("header").map(parseHeader);
  if (headers.filter(([name]) => name.toLowerCase() === "host").length > 1) {
    throw new UsageError("-H sets Host twice: drop one (servers refuse a request with two)");
  }
  if (contentType !== undefined) {
    if (headers.some(([name]) => name.toLowerCase() === "content-type")) {
      throw new UsageError("-T and -H both set Content-Type; set it once, e.g. -T application/json");
    }
    headers.push(["Content-Type", checkHeaderValue(contentType, "-T")]);
  }
  const body = readBody(bodyText, bodyFile);
  if (entries.length === 0) {
    const upper = (method ?? "GET").toUpperCase();
    if (!METHOD.test(upper)) {
      throw new UsageError(`-m "${method}": not an HTTP method; use letters only, e.g. POST`);
    }
    return [withBody({ method: upper, path: urlPathOf(url, flags.raw.positionals[0]), headers }, body)];
  }
  if (method !== undefined) {
    throw new UsageError(
      '-m has no effect with --mix; put the method in each entry, e.g. --mix "POST /user 1"',
    );
  }
  return entries.map((entry) => {
    const { method, path, weight } = parseMixEntry(entry);
    return withBody({ method, path, headers, weight }, NO_BODY_METHODS.has(method) ? undefined : body);
  });
}

/** The URL's path and query, as typed when it has a placeholder the URL parser would percent-encode. */
function urlPathOf(url: URL, typed: string): string {
  if (!hasPlaceholder(typed)) return url.pathname + url.search;
  const rest = typed.slice(typed.indexOf("//") + 2).replace(/#.*$/s, "");
  const start = rest.search(/[/?]/);
  if (start < 0) return "/";
  return rest[start] === "?" ? `/${rest.slice(start)}` : rest.slice(start);
}

/** Adds `body` only when there is one, so a bodiless request has no `body` key at all. */
function withBody(request: RequestInput, body: Uint8Array<ArrayBuffer> | undefined): RequestInput {
  return body === undefined ? request : { ...request, body };
}

/** `Name: value` → `[name, value]`, refusing what would corrupt the request; secrets shown as tokens. */
export function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(":");
  const name = colon < 0 ? "" : text.slice(0, colon).trim();
  const where = `-H ${JSON.stringify(shownHeader(text))}`;
  if (colon < 0 || !TOKEN.test(name)) {
    throw new UsageError(`${where}: not a header; write "Name: value", e.g. -H "Accept: application/json"`);
  }
  const problem = headerNameProblem(name);
  if (problem !== undefined) throw new UsageError(`${where}: ${problem}`);
  return [name, checkHeaderValue(text.slice(colon + 1).trim(), where)];
}

/** `value`, or a usage error at `where` saying why it cannot be a header value (runner/request_rules.ts). */
function checkHeaderValue(value: string, where: string): string {
  const problem = headerValueProblem(value);
  if (problem !== undefined) throw new UsageError(`${where}: ${problem}`);
  return value;
}

/** `METHOD /path [weight]`, e.g. `GET /json 3`. */
function parseMixEntry(text: string): { method: string; path: string; weight: number } {
  const bad = (why: string) =>
    new UsageError(
      `--mix ${JSON.stringify(text)}: ${why}; write "METHOD /path [weight]", e.g. --mix "GET /json 3"`,
    );
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2 || parts.length > 3) throw bad("expected 2 or 3 words");
  const [methodText, path, weightText = "1"] = parts;
  if (!METHOD.test(methodText)) throw bad(`"${methodText}" is not an HTTP method`);
  if (!path.startsWith("/")) throw bad("the path must start with '/'");
  if (!DECIMAL.test(weightText) || Number(weightText) <= 0) {
    throw bad(`weight "${weightText}" must be a number > 0`);
  }
  return { method: methodText.toUpperCase(), path, weight: Number(weightText) };
}

function readBody(body?: string, bodyFile?: string): Uint8Array<ArrayBuffer> | undefined {
  if (body !== undefined && bodyFile !== undefined) {
    throw new UsageError("-b and --body-file both set the body; use one of them");
  }
  // curl's `-d @file` reads a file; sent as written, the body would be the path (a file's: --body-file).
  if (body !== undefined && /^@\S+$/.test(body)) {
    const path = body.slice(1);
    throw new UsageError(
      `-b "${body}": -b sends its text as written; give a file's bytes with --body-file ${path}`,
    );
  }
  if (body !== undefined) return new TextEncoder().encode(body);
  return bodyFile === undefined ? undefined : readBodyFile(bodyFile);
}

/** The bytes of `--body-file PATH`, at most `MAX_BODY_BYTES`, or a usage error naming the file. */
export function readBodyFile(path: string): Uint8Array<ArrayBuffer> {
  return readOrRefuse(() => readFileCapped(path, MAX_BODY_BYTES), (why, cause) => {
    const fix = why.includes("over the cap")
      ? "bodies are sent whole with every request, not streamed: give a smaller file"
      : "give the path of a readable regular file";
    return new UsageError(`--body-file ${JSON.stringify(path)}: ${why}; ${fix}`, cause);
  });
}

export const DATA_FILE_FLAGS = optionFlags(DATA_OPTIONS, "data.");

/** The rows of `--data-file` as the engine takes them, or undefined without it. */
export function dataFileArgs(flags: FlagValues, url: URL): DataSpec | undefined {
  const given = optionValues(flags, DATA_OPTIONS, DATA_FILE_FLAGS);
  const file = given.file as string | undefined;
  if (file === undefined) {
    const other = Object.values(DATA_FILE_FLAGS).find((f) => flags.has(f.long));
    if (other) throw new UsageError(`--${other.long} goes with --data-file FILE, e.g. --data-file users.csv`);
    return undefined;
  }
  if (url.protocol === "ws:" || url.protocol === "wss:") {
    throw new UsageError(
      "--data-file fills HTTP requests and gRPC calls; a ws:// run sends its messages as given",
    );
  }
  const parsed = dataSourceSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flagOf = (field: PropertyKey) => `--${DATA_FILE_FLAGS[String(field)]?.long ?? "data-file"}`;
    // The schema's messages name the file's fields; a command line has flags.
    const message = issue.message.replace(/\b(whenDone|skipHeader|fields)\b/g, flagOf);
    throw new UsageError(`${flagOf(issue.path[0])}: ${message}`, { cause: parsed.error });
  }
  const source = parsed.data;
  try {
    const table = readDataFile(file, source);
    return { name: basename(file), ...table, order: source.order, whenDone: source.whenDone };
  } catch (err) {
    if (err instanceof DataFileError) throw new UsageError(`--data-file ${err.message}`, { cause: err });
    throw err;
  }
}

/** Refuses a placeholder of `texts` that names no column of `data` or is not one at all. */
export function checkPlaceholderNames(
  texts: ReadonlyArray<readonly [string, string]>,
  data: DataSpec | undefined,
): void {
  for (const [flag, text] of texts) {
    for (const p of placeholdersOf(text)) {
      if (typeof p === "string") throw new UsageError(`${flag}: ${p}`);
      if (p.kind !== "name" || data?.columns.includes(p.name)) continue;
      const from = data === undefined
        ? "there is no --data-file to fill it"
        : `${data.name} has no such column (its columns: ${someOf(data.columns)})`;
      throw new UsageError(
        `${flag}: {{ ${p.name} }} is unknown: ${from}; use a column of --data-file FILE, ` +
          "or a built-in function ($randomNumber(min,max), $randomString(n))",
      );
    }
  }
}

/** The first few of `names` and how many more, so a wide file's message stays one short line. */
function someOf(names: readonly string[], shown = 10): string {
  const more = names.length - shown;
  return names.slice(0, shown).join(", ") + (more > 0 ? ` and ${more.toLocaleString("en-US")} more` : "");
}
