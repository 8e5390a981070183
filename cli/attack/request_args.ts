/**
 * @module
 * `-m`, `-H`, `-T`, `-b`/`--body-file` and `--mix` as the request mix of an attack.
 */
import type { AttackConfigInput } from "../../runner/config.ts";
import { UsageError } from "../usage_error.ts";
import { hasPlaceholder } from "../../runner/http/template.ts";
import { MAX_BODY_BYTES } from "../../runner/http/fill_values.ts";
import { headerNameProblem, headerValueProblem } from "../../runner/request_rules.ts";
import { shownHeader } from "../../results/redact_quote.ts";
import { FileReadError, readFileCapped } from "../../system/read_capped.ts";

/** The request-shaping flags as given (already split by the tokenizer). */
interface RequestFlags {
  url: URL;
  /** The URL as typed: its path and query are taken from it when they have a `{{ placeholder }}`. */
  typedUrl?: string;
  method?: string;
  headers: string[];
  contentType?: string;
  body?: string;
  bodyFile?: string;
  mix: string[];
}

/** One request of the mix before defaults are filled by the config schema. */
export type RequestInput = NonNullable<AttackConfigInput["requestMix"]>[number];

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const METHOD = /^[A-Za-z]+$/;
const NO_BODY_METHODS = new Set(["GET", "HEAD"]);

/** Builds the request mix; throws `UsageError` naming the flag at fault. */
export function buildRequestMix(flags: RequestFlags): RequestInput[] {
  const headers = flags.headers.map(parseHeader);
  if (headers.filter(([name]) => name.toLowerCase() === "host").length > 1) {
    throw new UsageError("-H sets Host twice: drop one (servers refuse a request with two)");
  }
  if (flags.contentType !== undefined) {
    if (headers.some(([name]) => name.toLowerCase() === "content-type")) {
      throw new UsageError("-T and -H both set Content-Type; set it once, e.g. -T application/json");
    }
    headers.push(["Content-Type", checkHeaderValue(flags.contentType, "-T")]);
  }
  const body = readBody(flags);
  if (flags.mix.length === 0) {
    const method = parseMethod(flags.method ?? "GET", "-m");
    return [withBody({ method, path: urlPathOf(flags), headers }, body)];
  }
  if (flags.method !== undefined) {
    throw new UsageError(
      '-m has no effect with --mix; put the method in each entry, e.g. --mix "POST /user 1"',
    );
  }
  return flags.mix.map((entry) => {
    const { method, path, weight } = parseMixEntry(entry);
    return withBody({ method, path, headers, weight }, NO_BODY_METHODS.has(method) ? undefined : body);
  });
}

/** The URL's path and query, as typed when it has a placeholder the URL parser would percent-encode. */
function urlPathOf(flags: RequestFlags): string {
  const typed = flags.typedUrl;
  if (typed === undefined || !hasPlaceholder(typed)) return flags.url.pathname + flags.url.search;
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
  if (colon < 0 || !TOKEN.test(name)) {
    throw new UsageError(
      `-H ${
        JSON.stringify(shownHeader(text))
      }: not a header; write "Name: value", e.g. -H "Accept: application/json"`,
    );
  }
  const where = `-H ${JSON.stringify(shownHeader(text))}`;
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

function parseMethod(text: string, where: string): string {
  if (!METHOD.test(text)) {
    throw new UsageError(
      `${where} ${JSON.stringify(text)}: not an HTTP method; use letters only, e.g. GET or POST`,
    );
  }
  return text.toUpperCase();
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
  if (!/^(\d+(\.\d+)?|\.\d+)$/.test(weightText) || Number(weightText) <= 0) {
    throw bad(`weight "${weightText}" must be a number > 0`);
  }
  return { method: methodText.toUpperCase(), path, weight: Number(weightText) };
}

function readBody(flags: RequestFlags): Uint8Array<ArrayBuffer> | undefined {
  if (flags.body !== undefined && flags.bodyFile !== undefined) {
    throw new UsageError("-b and --body-file both set the body; use one of them");
  }
  if (flags.body !== undefined) return new TextEncoder().encode(flags.body);
  if (flags.bodyFile === undefined) return undefined;
  return readBodyFile(flags.bodyFile);
}

/** The bytes of `--body-file PATH`, at most `MAX_BODY_BYTES`, or a usage error naming the file. */
export function readBodyFile(path: string): Uint8Array<ArrayBuffer> {
  try {
    return readFileCapped(path, MAX_BODY_BYTES);
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    const fix = err.reason.includes("over the cap")
      ? "bodies are sent whole with every request, not streamed: give a smaller file"
      : "give the path of a readable regular file";
    throw new UsageError(`--body-file ${JSON.stringify(path)}: ${err.reason}; ${fix}`, { cause: err });
  }
}
