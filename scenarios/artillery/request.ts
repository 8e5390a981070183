/**
 * @module
 * One Artillery request step -> a loadlab request step, named as Artillery's `metrics-by-endpoint` names it.
 */
import { type Collector, HOOKS, join, mapStrings, problem, rejectUnknownKeys } from "./common.ts";
import { isRecord } from "../../validation/json_document.ts";
import { listOrigin, tagOrigin } from "./paths.ts";
import { basename, resolve } from "node:path";
import { contentTypeOf } from "../../targets/app/static_files.ts";

/** `config.variables`: a value to substitute, or a list (refused when used); `rows`: a loadAll payload's. */
export type Variables = Map<string, { value: string | number | boolean } | { list: unknown[]; rows?: true }>;

/** What every request of the script shares. */
export interface FlowContext {
  /** The target's origin (`http://host:port`), the base URL of the loadlab target. */
  origin: string;
  /** The target URL's path without a trailing slash ("" or "/api"): Artillery prefixes it to urls. */
  basePath: string;
  defaultHeaders: Record<string, string>;
  variables: Variables;
  /** Names filled at run time (payload fields, captures): their placeholders stay as written. */
  runtimeNames: ReadonlySet<string>;
  /** `strict: false` captures a template reads: kept (the session script's), else left out. */
  lenient?: ReadonlySet<string>;
  /** How requests are named as endpoints (endpoints.ts). */
  naming: EndpointNaming;
  /** `config.processor`'s text: hooks allowed, names it may set left to fill per session. */
  processor?: string;
  /** The fields of captures a scenario's templates read: name -> [capture, path after it]. */
  fields?: Map<string, [string, string]>;
  /** Set when the scenarios run as a session script: it draws a variable's list per user, sends bytes. */
  scripted?: boolean;
  /** The script's folder: `formData` files are read from it. */
  dir?: string;
  /** `config.plugins.expect` when named (else `expect:` is not read, as in Artillery). */
  expect?: { expectDefault200?: boolean; ends?: boolean };
  /** An `engine: ws` scenario's: the path its user connects to (its steps: sends, waits, thinks, loops). */
  ws?: string;
}

const RUNTIME_CALL = /^\$random(Number|String)\(/;
const REQUEST_KEYS = ("url json body form headers qs capture match name " +
  "expect ifTrue cookie auth gzip followRedirect formData").split(" ");

const TEMPLATE = /\{\{\s*([^}]*?)\s*\}\}/g;

/** A call in a template; Artillery makes a string whose call names no function of its own undefined. */
const CALL = /\{\{\s*(\$\w+)\s*\([\w,\s]*\)\s*\}\}/;

/**
 * Fills `{{ name }}` in one string; a template that is the whole string keeps the variable's type. A JSON
 * body's field (`inJson`) calling a function Artillery lacks is undefined, so JSON leaves it out.
 */
export function fill(text: string, path: string, ctx: FlowContext, out: Collector, inJson = false) {
  const call = CALL.exec(text)?.[1];
  if (call !== undefined && !RUNTIME_CALL.test(`${call}(`)) {
    if (!inJson) {
      return problem(out, path, `{{ ${call}() }}: Artillery has no such function: use a variable`, "");
    }
    out.warnings.push(`${path}: Artillery has no ${call}(): its JSON leaves this field out`);
    return undefined;
  }
  const whole = /^\{\{\s*([^}]*?)\s*\}\}$/.exec(text);
  const lookup = (name: string): string | number | boolean | undefined => {
    if (ctx.runtimeNames.has(name) || RUNTIME_CALL.test(name)) return `{{ ${name} }}`;
    const v = ctx.variables.get(name);
    if (v && "value" in v) return v.value;
    // A list's value is drawn per virtual user: the scenarios then run as a session script, which draws it.
    if (v && !v.rows) return (ctx.scripted = true) && `{{ ${name} }}`;
    if (ctx.processor !== undefined) return `{{ ${name} }}`;
    // A field of a capture (`{{ user.roles[0] }}`): captured apart, as `user.roles.0` (flow.ts).
    const field = /^([\w$-]+)((?:\.[\w$-]+|\[\d+\])+)$/.exec(name);
    if (field && ctx.runtimeNames.has(field[1])) {
      ctx.fields?.set(field[1] + field[2].replace(/\[(\d+)\]/g, ".$1"), [field[1], field[2]]);
      return `{{ ${field[1]}${field[2].replace(/\[(\d+)\]/g, ".$1")} }}`;
    }
    if (name === "$uuid") {
      out.warnings.push(
        `${path}: {{ $uuid }} is new for each request here, one per virtual user in Artillery`,
      );
      return "{{ $uuid() }}";
    }
    // A `$` name Artillery's context lacks is undefined there ($env.NAME and $uuid are filled before).
    if (inJson && !v && /^\$(?!(testId|dirname|scenarioFile)$)/.test(name)) {
      out.warnings.push(
        `${path}: Artillery has no {{ ${name} }}: JSON leaves it out, or "undefined" in a string`,
      );
      return undefined;
    }
    const why = v
      ? `{{ ${name} }}: a loadAll payload is a list of rows: loop over it (over: ${name})`
      : name.startsWith("$")
      ? `{{ ${name} }}: not supported (variables, $env.NAME, $randomNumber() and $randomString() are)`
      : `{{ ${name} }} is not in config.variables, a payload field or a capture (strict: false ones are not)`;
    return problem(out, path, why, "");
  };
  if (whole) return lookup(whole[1]);
  return text.replace(TEMPLATE, (_, name: string) => String(lookup(name)));
}

/** A header or query map of scalars with templates filled; undefined (and an issue) when malformed. */
export function scalarMap(value: unknown, path: string, ctx: FlowContext, out: Collector) {
  if (!isRecord(value)) {
    return problem(out, path, `expected a mapping of names to values, found ${JSON.stringify(value)}`);
  }
  const result: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (["string", "number", "boolean"].includes(typeof v)) {
      result[k] = String(typeof v === "string" ? fill(v, join(path, k), ctx, out) : v);
    } else problem(out, join(path, k), `expected a string or number, found ${JSON.stringify(v)}`);
  }
  return result;
}

/**
 * The headers `cookie` and `auth` make (Artillery's jar and got's basic auth); `gzip` (decompression, on by
 * default there) changes no request.
 */
function sentAs(spec: Record<string, unknown>, path: string, ctx: FlowContext, out: Collector) {
  const headers: Record<string, string> = {};
  if (spec.cookie !== undefined) {
    const cookie = scalarMap(spec.cookie, join(path, "cookie"), ctx, out) ?? {};
    headers.cookie = Object.entries(cookie).map(([k, v]) => `${k}=${v}`).join("; ");
    out.warnings.push(
      `${path}.cookie: sent on this request; Artillery's jar sends it on the user's later ones too`,
    );
  }
  const auth = spec.auth === undefined ? undefined : scalarMap(spec.auth, join(path, "auth"), ctx, out);
  if (auth && !/\{\{/.test(auth.user + auth.pass)) {
    headers.authorization = `Basic ${btoa(`${auth.user ?? ""}:${auth.pass ?? ""}`)}`;
  } else if (auth) {
    problem(out, join(path, "auth"), "a user or pass filled per session: send an authorization header");
  }
  for (const key of ["gzip", "followRedirect"]) {
    if (spec[key] !== undefined && typeof spec[key] !== "boolean") {
      problem(out, join(path, key), "expected true or false");
    }
  }
  return headers;
}

/** Artillery's `url` (relative to the target, or absolute on the same origin) as a loadlab path. */
function toPath(url: unknown, path: string, ctx: FlowContext, out: Collector): string | undefined {
  if (typeof url !== "string" || url === "") {
    return problem(out, path, `missing: every request needs a url such as "/home"`);
  }
  const filled = String(fill(url, path, ctx, out));
  if (/^https?:\/\//i.test(filled)) {
    const parsed = new URL(filled);
    // Another origin is sent to as written, by the session script (which dials any origin).
    if (parsed.origin !== ctx.origin) return (ctx.scripted = true) && filled;
    return parsed.pathname + parsed.search;
  }
  return ctx.basePath + (filled.startsWith("/") ? filled : `/${filled}`);
}

const FORM_TYPE = "application/x-www-form-urlencoded";
const BOUNDARY = "loadlab-artillery-form-data";
type HeaderMap = Record<string, string>;
/** A form's key or value as Artillery sends it (`a b&c`: `a+b%26c`); placeholders stay for the engine. */
const urlencoded = (text: string) =>
  text.split(/(\{\{.*?\}\})/).map((t, i) => i % 2 ? t : String(new URLSearchParams({ t })).slice(2)).join("");

/** Merges default and step headers; the step wins, names compared without case as HTTP does. */
function mergeHeaders(defaults: HeaderMap, own: HeaderMap | undefined, path: string, out: Collector) {
  const ownNames = new Set(Object.keys(own ?? {}).map((k) => k.toLowerCase()));
  const merged = Object.fromEntries(Object.entries(defaults).filter(([k]) => !ownNames.has(k.toLowerCase())));
  const keys = Object.fromEntries(Object.keys(merged).map((k) => [k, join("config.defaults.headers", k)]));
  const at = own === undefined ? "config.defaults.headers" : path;
  return tagOrigin(out.origins, { ...merged, ...own }, { at, keys, mirrors: true });
}

/**
 * `formData`'s parts as Artillery's form-data lays them out: a value, `{value, contentType}`, or a file
 * `{fromFile}` (beside the script); [name, text, header after the name]. A non-UTF-8 file makes every part
 * a byte string (one character each) a session script sends.
 */
function formParts(data: unknown, path: string, ctx: FlowContext, out: Collector) {
  if (!isRecord(data)) return scalarMap(data, path, ctx, out) && undefined;
  const parts = Object.entries(data).map(([k, v]): Array<string | Uint8Array> => {
    if (!isRecord(v)) return [k, scalarMap({ [k]: v }, path, ctx, out)?.[k] ?? ""];
    const at = join(path, k), file = v.fromFile ? resolve(ctx.dir ?? ".", String(v.fromFile)) : "";
    rejectUnknownKeys(v, at, ["value", "fromFile", "contentType"], out);
    const type = v.contentType ?? (file && contentTypeOf(file).split(";")[0]);
    const head = (file ? `; filename="${basename(file)}"` : "") + (type ? `\r\ncontent-type: ${type}` : "");
    try {
      const bytes = file ? Deno.readFileSync(file) : undefined,
        text = bytes && new TextDecoder().decode(bytes);
      if (text?.includes("\uFFFD")) return [k, bytes!, head]; // not UTF-8: its bytes
      return [k, text ?? String(fill(String(v.value ?? ""), at, ctx, out)), head];
    } catch (err) {
      return problem(out, join(at, "fromFile"), `${file} ${(err as Error).message}`, []);
    }
  });
  if (!parts.some((p) => p[1] instanceof Uint8Array)) return parts as string[][];
  ctx.scripted = true;
  const byteText = (b: Uint8Array) => Array.from(b, (c) => String.fromCharCode(c)).join("");
  const encoded = parts.map((p) =>
    p.map((x) => byteText(x instanceof Uint8Array ? x : new TextEncoder().encode(x)))
  );
  return Object.assign(encoded, { bytes: true });
}

/** One request step as a loadlab request and its captures; undefined (and an issue) when malformed. */
export function convertRequest(spec: unknown, path: string, ctx: FlowContext, out: Collector) {
  if (!isRecord(spec)) {
    return problem(out, path, `expected a request such as {url: /home}, found ${JSON.stringify(spec)}`);
  }
  const hooks = ctx.processor === undefined ? [] : HOOKS.slice(0, 2);
  rejectUnknownKeys(spec, path, [...REQUEST_KEYS, ...hooks], out);
  const request: Record<string, unknown> = { path: toPath(spec.url, join(path, "url"), ctx, out) };
  request.name = artilleryEndpointName(String(spec.url), spec.name, ctx);
  const map = (key: string) =>
    spec[key] === undefined ? undefined : scalarMap(spec[key], join(path, key), ctx, out);
  if (spec.qs !== undefined) request.query = map("qs");
  // A request without headers of its own keeps its defaults' origin (config.defaults.headers).
  const made = sentAs(spec, path, ctx, out);
  const own = Object.keys(made).length > 0 ? { ...map("headers"), ...made } : map("headers");
  const form = map("form");
  const multipart = spec.formData === undefined
    ? undefined
    : formParts(spec.formData, join(path, "formData"), ctx, out);
  const named = Object.keys({ ...ctx.defaultHeaders, ...own }).some((k) => /^content-type$/i.test(k));
  const type = form ? FORM_TYPE : `multipart/form-data; boundary=${BOUNDARY}`;
  const defaults = !(form || multipart) || named
    ? ctx.defaultHeaders
    : { ...ctx.defaultHeaders, "content-type": type };
  const headers = mergeHeaders(defaults, own, join(path, "headers"), out);
  if (Object.keys(headers).length > 0) request.headers = headers;
  const bodies = ["json", "body", "form", "formData"].filter((key) => spec[key] !== undefined);
  if (bodies.length > 1) problem(out, join(path, bodies[1]), `give one of json, body or form, not ${bodies}`);
  else if (multipart) {
    const part = ([k, v, head = ""]: string[]) =>
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${k}"${head}\r\n\r\n${v}\r\n`;
    request.body = multipart.map(part).join("") + `--${BOUNDARY}--\r\n`;
    if ("bytes" in multipart) request.bytes = true;
  } else if (spec.json !== undefined) {
    request.json = mapStrings(
      spec.json,
      join(path, "json"),
      (text, at) => fill(text, at, ctx, out, true),
      true,
    );
  } else if (form) {
    request.body = Object.entries(form).map(([k, v]) => `${urlencoded(k)}=${urlencoded(v)}`).join("&");
  } else if (spec.body !== undefined) {
    const body = typeof spec.body === "string" ? spec.body : JSON.stringify(spec.body);
    request.body = String(fill(body, join(path, "body"), ctx, out));
  }
  // The request's keys as the script names them; a name not given is made from the url.
  const keys = {
    path: join(path, "url"),
    query: join(path, "qs"),
    name: join(path, spec.name ? "name" : "url"),
  };
  tagOrigin(out.origins, request, { at: path, keys, mirrors: true });
  const capture = convertCaptures(spec.capture, join(path, "capture"), out, CAPTURE_KINDS, ctx.lenient);
  const matches = convertMatches(spec.match, join(path, "match"), ctx, out);
  // A selector capture is read by the session script, which parses HTML.
  if ([...capture ?? [], ...matches].some((c) => c.selector !== undefined)) ctx.scripted = true;
  return {
    request,
    maxRedirects: spec.followRedirect === false ? 0 : undefined,
    capture: matches.length ? [...capture ?? [], ...matches] : capture,
    expect: convertExpect(spec.expect, join(path, "expect"), capture ?? [], ctx, out),
  };
}

const OTHER = "expected one of statusCode, contentType, hasHeader, headerEquals, hasProperty, " +
  "notHasProperty, equals, matchesRegexp";
/** Artillery reads `res.headers[name]`, whose names are lower case: another name is never found there. */
const UPPER =
  "is never found there (Node names headers in lower case, so every check fails): write it in lower case";
/** What `contentType: json` accepts in the content-type header (the body must parse there too). */
const JSON_TYPE = "application/(problem\\+|ld\\+)?json";

/** The expect plugin's expectations (a list, or a mapping) as loadlab checks; `expectDefault200` adds one. */
function convertExpect(value: unknown, path: string, captures: unknown[], ctx: FlowContext, out: Collector) {
  if (ctx.expect === undefined || value === undefined) {
    if (value !== undefined) {
      out.warnings.push(`${path}: not read without config.plugins.expect, as in Artillery`);
    }
    return ctx.expect?.expectDefault200 === true ? [{ status: 200 }] : undefined;
  }
  const map = Object.entries(isRecord(value) ? value : {}).map(([k, v]) => ({ [k]: v }));
  return (Array.isArray(value) ? value : map).flatMap((e, i) => {
    const [kind, raw] = isRecord(e) && Object.keys(e).length === 1 ? Object.entries(e)[0] : [];
    const at = Array.isArray(value) ? join(join(path, i), kind ?? "") : join(path, kind ?? "");
    const list = [raw].flat(), scalars = list.every((v) => ["string", "number"].includes(typeof v));
    const texts = scalars ? list.map((v) => String(fill(String(v), at, ctx, out))) : [];
    const [t, known] = [texts.length === 1 ? texts[0] : "", !texts.some((x) => x.includes("{{"))];
    const check = kind === undefined
      ? "expected one expectation such as statusCode: 200"
      : texts.length === 0
      ? OTHER
      : texts.length > 1 && kind === "equals" && new Set(texts).size === 1
      ? null // the same text twice: always equal
      : kind === "equals"
      ? capturedEquals(texts, captures) ??
        "compares values no check reads (only a json capture of its request)"
      : kind === "headerEquals"
      ? texts.length !== 2 || !known && texts[0].includes("{{")
        ? 'expected [name, value], e.g. [x-id, "7"]'
        : texts[0] !== texts[0].toLowerCase()
        ? `${texts[0]} ${UPPER}`
        : { header: texts[0], equals: texts[1] }
      : kind === "statusCode" && known && texts.every((x) => /^\d{3}$/.test(x))
      ? { status: texts.length === 1 ? Number(t) : texts.map(Number) } // a list passes on any of them
      : kind === "statusCode"
      ? "expected a status code such as 200, or a list of them"
      : texts.length !== 1
      ? OTHER
      : !known
      ? "a payload field or capture is not filled here: give the value"
      : kind === "contentType"
      ? {
        header: "content-type",
        regexp: t === "json" ? JSON_TYPE : `^(?i:${t.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")})$`,
      }
      : kind === "hasHeader"
      ? t === t.toLowerCase() ? { header: t, exists: true } : `${t} ${UPPER}`
      : kind === "hasProperty" || kind === "notHasProperty"
      ? { json: `$${t.startsWith("[") ? "" : "."}${t}`, exists: kind === "hasProperty" }
      : kind === "matchesRegexp"
      ? { regexp: parsedBodyRegexp(t) }
      : ["notStatusCode", "cdnHit"].includes(kind)
      ? "not converted: drop it, or write it as statusCode or hasHeader"
      : OTHER;
    if (typeof check === "string") return problem(out, at, check, []);
    return check ? [tagOrigin(out.origins, check, { at })] : [];
  });
}

/**
 * `matchesRegexp` as the expect plugin tests it: a JSON body is parsed first, so the pattern meets an
 * object's text, `[object Object]` (a body starting with `{` here; the plugin reads the content type).
 */
function parsedBodyRegexp(rx: string): string {
  let object = false;
  try {
    object = new RegExp(rx).test("[object Object]");
  } catch { /* the check names it */ }
  return object ? `^\\s*\\{|(?:${rx})` : `^(?!\\s*\\{)[\\s\\S]*?(?:${rx})`;
}

/** `equals: ["{{ id }}", "7"]` of a json capture of the same request: its path equals the value, as JSON. */
function capturedEquals(texts: string[], captures: unknown[]) {
  const named = texts.filter((t) => t.includes("{{")),
    known = [...new Set(texts)].filter((t) => !t.includes("{{"));
  const from = captures.find((c) =>
    isRecord(c) && typeof c.json === "string" && named[0] === `{{ ${c.as} }}`
  );
  if (named.length !== 1 || known.length !== 1 || !isRecord(from)) return undefined;
  const typed = /^(-?\d+(\.\d+)?|true|false|null)$/.test(known[0]) ? JSON.parse(known[0]) : known[0];
  return { json: from.json, equals: typed };
}

/**
 * Artillery's `match` (one or a list): a value found that is not `value` ends the virtual user there (a json
 * one also on a non-JSON body), as a capture with `equals` ends the session here; others check nothing.
 */
function convertMatches(value: unknown, path: string, ctx: FlowContext, out: Collector) {
  return [value ?? []].flat().flatMap((m, i) => {
    const at = Array.isArray(value) ? join(path, i) : path;
    if (!isRecord(m) || m.strict === false || m.value === undefined && m.json === undefined) return [];
    const { value: expected, strict: _, ...rest } = m;
    const spec = expected === undefined ? { json: "$", as: "_match" } : { ...rest, as: "_match" };
    const [read] = convertCaptures(spec, at, out) ?? [];
    if (expected === undefined || read === undefined) return read ? [read] : [];
    const equals = typeof expected === "string" ? fill(expected, join(at, "value"), ctx, out) : expected;
    const why = typeof equals === "string" && equals.includes("{{")
      ? "is filled per response here, not before the load: give the value"
      : typeof equals === "object" && equals !== null
      ? "is an object, which no value found equals there (every match fails): give a string or number"
      : undefined;
    return why ? problem(out, join(at, "value"), why, []) : [{ ...read, equals }];
  });
}

const CAPTURE_KINDS = ["json", "header", "regexp", "selector"];

/** Artillery's `capture` (one or a list) as loadlab captures: one of `kinds` (with group), and `as`. */
export function convertCaptures(
  value: unknown,
  path: string,
  out: Collector,
  kinds = CAPTURE_KINDS,
  lenient?: ReadonlySet<string>,
) {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  const keys = [...kinds, "group", "as", "transform", "strict", "attr", "index"];
  const paths: string[] = [];
  const captures = list.flatMap((c, i) => {
    const at = Array.isArray(value) ? join(path, i) : path;
    if (!isRecord(c) || typeof c.as !== "string") {
      return problem(out, at, "expected a capture such as {json: $.token, as: token}", []);
    }
    if (c.strict === false && !lenient?.has(c.as)) {
      out.warnings.push(`${at}: strict: false (it ends no virtual user there): not captured here`);
      return [];
    }
    if (kinds.filter((k) => typeof c[k] === "string").length !== 1) {
      const one = `${kinds.slice(0, -1).join(", ")} or ${kinds.at(-1)}`;
      return problem(out, at, `a capture takes one of ${one} (a string)`, []);
    }
    rejectUnknownKeys(c, at, keys, out);
    if (c.transform !== undefined) {
      out.warnings.push(`${at}.transform: not applied, as Artillery 2 applies none`);
    }
    paths.push(at);
    const read = Object.fromEntries(
      Object.entries(c).filter(([k]) =>
        keys.includes(k) && k !== "transform" && (k !== "strict" || !c.strict)
      ),
    );
    // Artillery's regexp capture without a group is the whole match, not its first group.
    if (read.regexp !== undefined) read.group ??= 0;
    return [tagOrigin(out.origins, read, { at, mirrors: true })];
  });
  return tagOrigin(out.origins, captures, listOrigin(path, paths));
}

/** How the script's requests are named. */
interface EndpointNaming {
  useOnlyRequestNames: boolean;
  stripQueryString: boolean;
}

const PLUGIN = "metrics-by-endpoint";
const BOOLEAN_OPTIONS = ["useOnlyRequestNames", "stripQueryString", "groupDynamicURLs"] as const;

/** The naming of `config.plugins.metrics-by-endpoint`; without options, Artillery 2's: no query string. */
export function endpointNaming(plugins: unknown, out: Collector): EndpointNaming {
  const naming = { useOnlyRequestNames: false, stripQueryString: false };
  const options = isRecord(plugins) ? plugins[PLUGIN] : undefined;
  if (options === undefined || options === null) return { ...naming, stripQueryString: true };
  const path = `config.plugins.${PLUGIN}`;
  if (!isRecord(options)) {
    return problem(out, path, "expected a mapping of options such as {useOnlyRequestNames: true}", naming);
  }
  for (const [key, value] of Object.entries(options)) {
    const at = join(path, key);
    if (key === "metricsNamespace") continue; // a prefix of Artillery's metric names: loadlab's are its own
    if (!(BOOLEAN_OPTIONS as readonly string[]).includes(key)) {
      const supported = [...BOOLEAN_OPTIONS, "metricsNamespace"].join(", ");
      problem(out, at, `not supported (loadlab reads ${supported})`);
    } else if (typeof value !== "boolean") problem(out, at, "expected true or false");
    else if (key !== "groupDynamicURLs") naming[key as keyof EndpointNaming] = value;
    else if (!value) {
      problem(out, at, "false names endpoints by filled URLs, unbounded; loadlab keeps the url");
    }
  }
  return naming;
}

/**
 * Artillery's name of a request: its url after the target's path (led by its host and port where they are
 * not the target's), without `qs`, and its `name`.
 */
function artilleryEndpointName(
  url: string,
  name: unknown,
  { basePath, naming, origin }: FlowContext,
): string {
  const parsed = /^https?:\/\//i.test(url) ? new URL(url) : undefined, target = new URL(origin);
  const host = parsed && parsed.hostname !== target.hostname ? parsed.hostname : "";
  const at = host + (parsed?.port && parsed.port !== target.port ? `:${parsed.port}` : "");
  let base = parsed ? at + parsed.pathname + parsed.search : url.startsWith("/") ? basePath + url : url;
  if (naming.stripQueryString) base = base.replace(/\?.*$/, "");
  try {
    base = decodeURIComponent(base);
  } catch { /* kept as written */ }
  if (typeof name !== "string" || name === "") return base;
  return naming.useOnlyRequestNames ? name : `${base} (${name})`;
}
