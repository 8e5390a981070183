/**
 * @module
 * k6's `k6/http`: a request to the target goes on the session's connection, another on the VU's own;
 * outside a session (setup, teardown) by `fetch`, counted as k6 counts them (`takeHookRequests`).
 */
import { current, requestDefaults, rpsWaitMs } from "./runtime.ts";
import { requestTags } from "./tags.ts";
import { fetchedResponse, fetchFailed, K6Response } from "./response.ts";
import { type Body, compress, encodeBody, file, isFormBody } from "./http_body.ts";
import { authKind, digestAuthorization, digestChallenge } from "./digest_auth.ts";
import { CookieJar, cookieJar } from "./cookie_jars.ts";
import { TLS_NAMES } from "./tls_info.ts";
import { debugExchange, httpDebug } from "./http_debug.ts";
import { b64encode } from "./encoding.ts";
import { pointsOut, requestPoints } from "./points_out.ts";
import { addPhases, urlName } from "./metrics.ts";
import { goError } from "./errors/error_codes.ts";
import { goUrl } from "./go_url.ts";
import type { Response, Session } from "../session.ts";
import { FailedResponse } from "../sessions/response.ts";
import type { ScriptSession } from "../sessions/session.ts";
import { durationMsOf } from "../../../validation/duration.ts";
import { expectStatuses } from "../../stats/recorder.ts";
import type { ErrorKind } from "../../../results/mod.ts";
import type { HookRecord } from "../../../results/hook_requests.ts";
import type { ExpectedStatuses } from "../../../results/schema/keys.ts";

/** k6's request params (those loadlab honours; another key is refused when the request is sent). */
export interface Params {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  timeout?: string | number;
  redirects?: number;
  responseType?: "text" | "binary" | "none";
  cookies?: Record<string, string | { value: string; replace?: boolean }>;
  jar?: unknown;
  compression?: string;
  auth?: string;
  /** `http.expectedStatuses(...)`: the statuses this request is not failed by (null: none judged). */
  responseCallback?: ExpectedStatuses | null;
}

const PARAMS = new Set(
  "headers tags timeout redirects responseType cookies jar auth responseCallback compression".split(" "),
);
type Url = string | { url: string; name: string };

/** The requests and checks of setup() and teardown() (k6 counts them), taken by `takeHookRequests`. */
const hookRequests: HookRecord[] = [];
const MAX_HOOK_REQUESTS = 10_000;

/** What the hook `phase` sent and checked, in k6's group of the hook (`::setup`; a check `::setup::name`). */
export const takeHookRequests = (phase: string): HookRecord[] =>
  hookRequests.splice(0).map((r) =>
    "check" in r
      ? { ...r, check: `::${phase}::${r.check}` }
      : { ...r, tags: { ...r.tags, group: `::${phase}` } }
  );

export function noteHookCheck(check: string, ok: boolean): void {
  if (hookRequests.length < MAX_HOOK_REQUESTS) hookRequests.push({ check, ok });
}

/** The origin of this isolate's target (read from the first session that sends). */
let targetOrigin: string | null = null;

/** k6's `http.url` tag: the URL, named by its template (`/items/${}`) so one endpoint counts them all. */
export function url(strings: TemplateStringsArray, ...values: unknown[]): { url: string; name: string } {
  return { url: String.raw(strings, ...values), name: strings.join("${}") };
}

/** One request; follows redirects; in a session on its connection, else by fetch. */
export const request = (method: string, target: Url, body?: Body, opts?: Params | null) =>
  send(false, method, target, body, opts);

/** k6's asyncRequest: sent at once beside the VU's requests in flight, on a connection of its own. */
export const asyncRequest = (method: string, target: Url, body?: Body, opts?: Params | null) =>
  send(true, method, target, body, opts);

function send(beside: boolean, method: string, target: Url, body?: Body, opts?: Params | null) {
  try {
    const hops = new Hops(method, target, body, opts ?? NO_PARAMS, beside), waitMs = rpsWaitMs();
    if (hops.place.unsent !== undefined) return Promise.resolve(hops.unsent(hops.place.unsent));
    if (waitMs <= 0) return hops.next();
    const s = hops.vu?.s;
    return (s ? s.sleep(waitMs) : new Promise((go) => setTimeout(go, waitMs))).then(() => hops.next());
  } catch (err) {
    return Promise.reject(err);
  }
}

/** A request's hops in one object the session hands each answer (`arrived`): no closure per request. */
class Hops {
  readonly digest: boolean;
  readonly name: string | undefined;
  /** Each hop's URL parsed once (a script's `base + "path"` is a new string each time, hashed per lookup). */
  place: Place;
  readonly headers: Record<string, string>;
  readonly tags: Readonly<Record<string, string>> | undefined;
  readonly jar: CookieJar | null;
  readonly givenCookie: string | undefined;
  readonly expected: ExpectedStatuses | undefined;
  hops: number;
  at: string;
  verb: string;
  sent: string | Uint8Array | undefined;
  answered = false;
  /** Taken now: a redirect's or a Digest answer's next hop resumes where another VU may be current. */
  readonly vu = current();
  startMs = 0;

  constructor(method: string, target: Url, body: Body, readonly params: Params, readonly beside: boolean) {
    refuseUnknown(params, PARAMS, "http params");
    this.digest = authKind(params.auth) === "digest";
    const href = typeof target === "string" ? target : target.url;
    this.name = params.tags?.name ?? (typeof target === "string" ? undefined : target.name);
    this.place = placeOf(href);
    this.headers = headersOf(params, this.place, body, this.digest);
    this.tags = requestTags(params.tags);
    this.jar = params.jar instanceof CookieJar ? params.jar : null;
    this.givenCookie = this.headers["Cookie"];
    this.expected = params.responseCallback === undefined ? undefined : statusesOf(params.responseCallback);
    this.hops = params.redirects ?? requestDefaults.maxRedirects;
    this.at = href, this.verb = method, this.sent = encodeBody(body, this.headers);
    if (params.compression !== undefined) this.sent = compress(this.sent, params.compression, this.headers);
  }

  /** k6's `url` tag of this hop: Go's print of its URL (a path named against the script's origin). */
  get url(): string {
    return this.place.origin === "" ? absolute(this.at) : this.place.tag;
  }

  /** Sends this hop on the VU's session (which hands its answer to `arrived`), else through fetch. */
  next(): Promise<K6Response> {
    if (pointsOut) this.startMs = performance.now();
    const { at, headers, sent: body, tags, params: { timeout }, expected } = this, s = this.vu?.s;
    const name = this.name ?? urlName(this.place.tag);
    this.jar?.addCookies(absolute(at), headers, this.givenCookie);
    const timeoutMs = timeout === undefined ? undefined : durationMs(timeout);
    if (s === undefined) return fetched(this, timeoutMs);
    // No headers of its own: the session's plain request, encoded once per method and path.
    const own = headers === NO_HEADERS ? undefined : headers, timed = timeoutMs !== undefined;
    const raw = asWritten(s, this.place);
    const options = own === undefined && body === undefined && !name && !tags && !timed && !expected
      ? raw
      : { headers: own, body, name, tags, timeoutMs, cookies: !this.jar, expectedStatuses: expected, ...raw };
    return (s as ScriptSession).request(this.verb, this.place.path, options, this) as Promise<any>;
  }

  /** A URL k6 sends nothing to: its request fails (throws with `throw: true`), said as k6 says it. */
  unsent(why: string): K6Response {
    const failed = new FailedResponse(/^(hostname|IP) \(/.test(why) ? "blocked" : "url", why);
    const res = new K6Response(failed, this, "none");
    console.warn(`Request Failed: ${why}`);
    if (requestDefaults.throw) throw goError(this.verb, absolute(this.at), why, undefined, this.beside);
    return res;
  }

  arrived(raw: Response): K6Response | Promise<K6Response> {
    const s = this.vu?.s, verb = this.verb, at = this.at, headers = this.headers;
    // k6 interrupts an iteration the run's end cuts at its request: the script sees no response.
    if (s?.ended.aborted) return CUT_SHORT;
    if (httpDebug !== null && s !== undefined) debugExchange(absolute(at), this, raw);
    // Measured, or (as k6 times them) failed unsent: 0 ms in every phase.
    if (requestDefaults.phases && s !== undefined && ((raw.waitingMs ?? NaN) >= 0 || unsentFailure(raw))) {
      addPhases(raw, this);
    }
    if (pointsOut && s !== undefined) requestPoints(this, raw, performance.now() - this.startMs);
    this.jar?.keep(absolute(at), raw.headers.getAll("set-cookie"));
    const challenge = this.digest && !this.answered && raw.status === 401
      ? digestChallenge(raw.headers.get("www-authenticate"))
      : null;
    if (challenge !== null) {
      const [user, password] = credentials(this.place.user);
      headers["Authorization"] = digestAuthorization(challenge, verb, this.place.path, user, password);
      this.answered = true;
      return this.next();
    }
    const location = raw.status >= 300 && raw.status < 400 ? raw.headers.get("location") : null;
    if (location === null || this.hops-- <= 0 || !sameOrigin(at, location)) {
      const type = this.params.responseType ?? (requestDefaults.discardResponseBodies ? "none" : "text");
      const res = new K6Response(raw, this, type);
      if (raw.status === 0 && requestDefaults.throw) {
        throw goError(verb, absolute(at), res.error, raw.failure, this.beside);
      }
      return res;
    }
    this.place = placeOf(this.at = new URL(location, at).href);
    if (raw.status === 303 || ((raw.status === 301 || raw.status === 302) && verb === "POST")) {
      this.verb = "GET", this.sent = undefined;
    }
    return this.next();
  }
}

/** The answer of a request the run's end cut: it never settles, so the iteration goes no further. */
const CUT_SHORT = new Promise<never>(() => {});

/** A URL as the script names it: a path is read against the script's origin. */
function absolute(href: string): string {
  return href.startsWith("/") ? new URL(href, targetOrigin ?? "http://localhost").href : href;
}

const NO_PARAMS: Params = {};
const NO_HEADERS: Record<string, string> = Object.freeze({});

/** The request's headers: the params' own object when nothing is added (no copy per request), else a copy. */
function headersOf(params: Params, place: Place, body: Body, digest: boolean): Record<string, string> {
  const auth = digest ? null : place.auth;
  const form = isFormBody(body);
  const own = params.headers === undefined ? NO_HEADERS : withoutFraming(params.headers);
  const given = requestDefaults.headers;
  const plain = given === undefined && auth === null && params.cookies === undefined && !form &&
    !place.host && params.jar === undefined && !digest && params.compression === undefined;
  if (plain) return own;
  const headers: Record<string, string> = { ...given, ...own };
  if (auth !== null) headers["Authorization"] ??= auth;
  if (place.host !== undefined) headers["Host"] ??= place.host;
  addCookies(params.cookies, headers);
  return headers;
}

/** `headers` as k6 sends them: values as `String(value)`, no Content-Length or Transfer-Encoding. */
function withoutFraming(headers: Record<string, unknown>): Record<string, string> {
  for (const name in headers) {
    if (!isFraming(name) && typeof headers[name] === "string") continue;
    const kept: Record<string, string> = {};
    for (const key in headers) if (!isFraming(key)) kept[key] = String(headers[key]);
    return kept;
  }
  return headers as Record<string, string>;
}

function isFraming(name: string): boolean {
  if (name.length !== 14 && name.length !== 17) return false;
  const lower = name.toLowerCase();
  return lower === "content-length" || lower === "transfer-encoding";
}

const sameOrigin = (from: string, location: string) =>
  URL.parse(location, from)?.origin === URL.parse(from)?.origin;

/** A hop outside a session (setup, teardown): by fetch, counted as k6 counts them (`takeHookRequests`). */
function fetched(h: Hops, timeoutMs: number | undefined): Promise<K6Response> {
  const { verb: method, at: href, headers, sent: body, name, tags, expected: expectedStatuses } = h;
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const init = { method, headers, body: body as BodyInit | undefined, signal, redirect: "manual" as const };
  const startMs = performance.now();
  return fetch(href, init).then((res) => fetchedResponse(res, startMs), fetchFailed).then((r) => {
    const failure = r.failure?.kind as ErrorKind | undefined,
      latencyUs = (performance.now() - startMs) * 1000;
    const sent = { name: name ?? `${method} ${href}`, method, tags, status: r.status, failure, latencyUs };
    if (expectedStatuses !== undefined) Object.assign(sent, { expectedStatuses });
    if (hookRequests.length < MAX_HOOK_REQUESTS) hookRequests.push(sent);
    return h.arrived(r);
  });
}

/** What a URL says once parsed by Go's rules (go_url.ts): its request-target, origin, Basic credentials. */
interface Place {
  path: string;
  origin: string;
  auth: string | null;
  /** k6's `url` tag and `res.url`; the Host field when written otherwise than the origin names it. */
  tag: string;
  shown: string;
  host?: string;
  /** Its `user:password` as written: Basic authorization, or a Digest answer's. */
  user: string;
  /** Why k6 sends no request to the URL (Go's parse failed, or a scheme not http's); else undefined. */
  unsent?: string;
  /** The session's options sending `path` as written (null: none needed; made at its first request). */
  raw?: { origin: string } | null;
}

/** URLs parsed before (a script names few: parsing each request's again costs more than the rest). */
const places = new Map<string, Place>();
const MAX_PLACES = 1024;

function placeOf(href: string): Place {
  let place = places.get(href);
  if (place !== undefined) return place;
  const g = goUrl(href), u = typeof g === "string" ? null : URL.parse(`${g.scheme}://${g.host}/`);
  place = { path: "", origin: "", auth: null, tag: href, shown: "", user: "" };
  if (typeof g === "string") place.unsent = `invalid URL: parse ${JSON.stringify(href)}: ${g}`;
  else if (href.startsWith("/")) Object.assign(place, { path: g.target, shown: href });
  else if (!/^https?$/.test(g.scheme)) place.unsent = `unsupported protocol scheme "${g.scheme}"`;
  else if (u === null) place.unsent = `invalid URL: parse "${href}"`;
  else {
    // k6 sends the URL's credentials as Basic authorization, and its host as written as Host.
    const { target: path, tag, shown, user } = g;
    const auth = user ? `Basic ${b64encode(credentials(user).join(":"))}` : null;
    place = { path, origin: u.origin, auth, tag, shown, user, unsent: blockedWhy(u) };
    if (g.host !== u.host) place.host = g.host;
  }
  if (places.size >= MAX_PLACES) places.clear();
  places.set(href, place);
  return place;
}

/** Why k6's dialer refuses a URL's host (`blockHostnames`) or address (`blacklistIPs`), else undefined. */
function blockedWhy(u: URL): string | undefined {
  const { blockHostnames: hostnames = [], blacklistIPs: ips = [], hosts = {} } = requestDefaults.blocked;
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  // As k6's hostname trie: a pattern's leading `*` stands for any start, the rest matches to the end.
  const pattern = hostnames.find((p) => p.startsWith("*") ? host.endsWith(p.slice(1)) : host === p);
  if (pattern !== undefined) return `hostname (${host}) is in a blocked pattern (${pattern})`;
  if (ips.length === 0) return undefined;
  const { isIP, BlockList } = process.getBuiltinModule("node:net");
  // The address dialled: the URL's own, or the one options.hosts gives its name (resolved names unseen).
  const to = hosts[u.host] ?? hosts[host] ?? host, ip = isIP(to) ? to : to.replace(/^\[?(.*?)\]?:\d+$/, "$1");
  const range = isIP(ip) === 0 ? undefined : ips.find((cidr) => {
    const [net, bits] = cidr.split("/"), list = new BlockList(), v = (a: string) => `ipv${isIP(a)}` as "ipv4";
    return list.addSubnet(net, Number(bits), v(net)), list.check(ip, v(ip));
  });
  return range === undefined ? undefined : `IP (${ip}) is in a blacklisted range (${range})`;
}

/** The origin for a request-target as Go wrote it (a raw space, dot segments); none for a plain path. */
function asWritten(s: Session, place: Place): { origin: string } | undefined {
  if (place.raw !== undefined) return place.raw ?? undefined;
  targetOrigin ??= new URL(s.target).origin;
  const own = place.origin === "" || place.origin === targetOrigin;
  return (place.raw = own && !/\s/.test(place.path) ? null : { origin: own ? targetOrigin : place.origin }) ??
    undefined;
}

/** A URL's `user:password` as the user and the password, each `%XX` unescaped. */
function credentials(userinfo: string): string[] {
  const colon = userinfo.indexOf(":") >>> 0,
    byte = (_: string, hex: string) => String.fromCharCode(parseInt(hex, 16));
  return [userinfo.slice(0, colon), userinfo.slice(colon + 1)].map((t) => t.replace(/%([\da-f]{2})/gi, byte));
}

/** params.cookies as a Cookie header; as k6, a jar's cookie of that name follows unless `replace: true`. */
function addCookies(cookies: Params["cookies"], headers: Record<string, string>): void {
  if (cookies === undefined) return;
  const jar = current()?.s.cookies;
  const pairs = Object.entries(cookies).map(([k, v]) => {
    const kept = typeof v === "string" || !v.replace ? jar?.get(k) : undefined;
    return `${k}=${typeof v === "string" ? v : v.value}${kept === undefined ? "" : `; ${k}=${kept}`}`;
  });
  if (pairs.length > 0) headers["Cookie"] = pairs.join("; ");
}

/** Throws for a key of `params` (`what`: `http params`...) not among `known`, the ones loadlab honours. */
export function refuseUnknown(params: object, known: ReadonlySet<string>, what: string): void {
  for (const key in params) {
    if (!known.has(key)) throw new TypeError(`${what}.${key} is not supported by loadlab's k6 runtime`);
  }
}

/** A k6 duration (`"30s"`, `"1m30s"`, `"500ms"`) or a number of ms. */
export function durationMs(value: string | number): number {
  if (typeof value === "number") return value;
  const ms = durationMsOf(value);
  if (ms === undefined) throw new TypeError(`${value}: not a duration (e.g. 30s, 1m30s, 500ms)`);
  return ms;
}

export const get = (u: Url, params?: Params | null) => request("GET", u, null, params);
export const head = (u: Url, params?: Params | null) => request("HEAD", u, null, params);
export const options = (u: Url, body?: Body, params?: Params | null) => request("OPTIONS", u, body, params);
export const post = (u: Url, body?: Body, params?: Params | null) => request("POST", u, body, params);
export const put = (u: Url, body?: Body, params?: Params | null) => request("PUT", u, body, params);
export const patch = (u: Url, body?: Body, params?: Params | null) => request("PATCH", u, body, params);
export const del = (u: Url, body?: Body, params?: Params | null) => request("DELETE", u, body, params);

type BatchItem = string | [string, Url, Body?, Params?] | {
  method: string;
  url: Url;
  body?: Body;
  params?: Params;
};

/** k6's batch: in a session at once (`s.batch`, within `batch`/`batchPerHost`), else one by one. */
export async function batch(
  requests: BatchItem[] | Record<string, BatchItem>,
): Promise<K6Response[] | Record<string, K6Response>> {
  const one = (item: BatchItem) =>
    typeof item === "string"
      ? get(item)
      : Array.isArray(item)
      ? request(item[0], item[1], item[2], item[3])
      : request(item.method, item.url, item.body, item.params);
  const s = current()?.s, items = Array.isArray(requests) ? requests : Object.values(requests);
  const responses = s === undefined
    ? [] as K6Response[]
    : await s.batch(() => Promise.all(items.map(one)), requestDefaults.batch);
  if (s === undefined) { for (const item of items) responses.push(await one(item)); }
  if (Array.isArray(requests)) return responses;
  return Object.fromEntries(Object.keys(requests).map((key, k) => [key, responses[k]]));
}

/** k6's expectedStatuses: each a status or `{ min, max }`, as inclusive ranges; at least one, as k6's. */
export function expectedStatuses(
  ...statuses: Array<number | { min: number; max: number }>
): ExpectedStatuses {
  if (statuses.length === 0) throw new TypeError("http.expectedStatuses(): no arguments, as k6 says");
  return statuses.map((s) => typeof s === "number" ? [s, s] : [s.min, s.max]);
}

/** k6's setResponseCallback: an answer outside the statuses it expects fails; null judges none. */
export function setResponseCallback(callback: ExpectedStatuses | null): void {
  expectStatuses(statusesOf(callback, "http.setResponseCallback takes"));
}

function statusesOf(callback: ExpectedStatuses | null, what = "a response callback is"): ExpectedStatuses {
  if (callback === null || Array.isArray(callback)) return callback ?? [];
  throw new TypeError(`${what} http.expectedStatuses(...) or null, as k6's is`);
}

// k6/http's documented names, importable by name as k6 scripts write them (`import { file } from "k6/http"`).
export { CookieJar, cookieJar, file };

const CALLS = { get, head, options, post, put, patch, del, request, asyncRequest, batch, url };
export default { ...CALLS, expectedStatuses, setResponseCallback, cookieJar, CookieJar, file, ...TLS_NAMES };

/** A request that failed before it was sent (refused, TLS): k6 times each of its phases 0 ms. */
const unsentFailure = (raw: Response) =>
  raw instanceof FailedResponse && (raw.failure.kind === "connect" || raw.failure.kind === "tls");
