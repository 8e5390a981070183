/**
 * @module
 * What a converted locustfile runs on: Locust's users, task sets, wait times and `self.client` over the
 * session API. A virtual user is one Locust user; each session runs one of its tasks and its `wait_time`,
 * as Locust's user loop does. A Locust failure is a failed check named by Locust's error text (stats.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { STATUS_CODES } from "node:http";
import { basename, dirname, join } from "node:path";
import type { RequestOptions, Response, Session } from "../session.ts";
import { type FormPart, multipart } from "../multipart.ts";
import { args, bool, builtins, Kw, mapping, output, PyError, repr, str } from "./py.ts";
import { LEVELS, loads, logTo, MODULES } from "./py_modules.ts";
import { setCookiePair } from "../sessions/cookies.ts";
import { TEST_ABORT_CHANNEL } from "../k6/test_abort.ts";
import { inputs, runChannel, scriptEnv } from "../isolate_inputs.ts";
import { SUM_MARK } from "../../../results/schema/keys.ts";

export const LOCUST_EVENTS =
  ("test_start test_stop init request report_to_master worker_report test_stopping " +
    "quitting spawning_complete init_command_line_parser reset_stats").split(" ");

/** A request Locust reports not (stats.ts): its `catch_response` block raised, or its user was killed. */
export const UNREPORTED = "not reported: its catch_response block raised, or its user was killed at the end";
/** The sum of a name's bodies' bytes, Locust's content size (stats.ts): a tally, not a check. */
export const CONTENT_BYTES = `${SUM_MARK}Locust's content size`;

/** What `loadlab run locustfile.py` passes the isolates (the command line's user classes and tags). */
export interface LocustSelection {
  users?: string[];
  tags?: string[];
  excludeTags?: string[];
  /** `-u`: how many users, so each class gets its share of them. */
  userCount?: number;
  host?: string;
  /** `--stop-timeout` (ms): the load's end lets tasks finish; without it a user stops at its next request. */
  stopTimeoutMs?: number;
  /** The locustfile's own path (its `__file__`). */
  file?: string;
  spawnRate?: number;
  runTimeS?: number;
  logLevel?: string;
  /** `--logfile`: where the file's logging lines go, not stderr. */
  logFile?: string;
  /** Its own options given on the command line, by name (`region` of `--region`). */
  options?: Record<string, string>;
  /** The command's process loads the module (`listenHere`): its top level, `init`, `test_start` run there. */
  heard?: boolean;
  /** `--reset-stats`: Locust's numbers counted from when the last user has spawned. */
  resetStats?: boolean;
  /** A shape's ticks' user classes: each user's class's name, by its number (from 1). */
  vuClasses?: string[];
}

type Shared = { vars: Record<string, unknown>; environment: Record<string, unknown>; resetAtMs?: number };

/** The module's variables (not its functions and classes), as the converter's footer gives them. */
let varsOf: () => Record<string, unknown> = () => ({});
let setVars: (vars: Record<string, unknown>) => void = () => {};

/** The plain data the listeners left in the module's variables (changed since `before`) and `environment`. */
function shared(before: string): Shared {
  const plain = ([k, v]: [string, unknown]) => !ENVIRONMENT_OWN.includes(k) && isPlain(v);
  const was = JSON.parse(before) as Record<string, unknown>;
  // A queue by its items: the load isolate's queue of that name takes them.
  const changed = ([k, v]: [string, unknown]) =>
    (plain([k, v]) || v instanceof Queue && isPlain(v.queue)) && JSON.stringify(v) !== JSON.stringify(was[k]);
  return {
    vars: Object.fromEntries(
      Object.entries(varsOf()).filter(changed).map(([k, v]) => [k, v instanceof Queue ? v.toJSON() : v]),
    ),
    environment: Object.fromEntries(Object.entries(environment).filter(plain)),
  };
}

/** Adopts `shared` into this isolate's module: a list or dict in place, so what holds it sees it. */
function adopt({ vars, environment: env, resetAtMs: at }: Shared): void {
  if (at !== undefined) resetAtMs = at;
  const now = varsOf();
  for (const [k, v] of Object.entries(vars)) {
    const was = now[k] as any, items = (v as Record<string, unknown[]> | null)?.[QUEUE_KEY];
    if (items !== undefined) {
      vars[k] = was instanceof Queue ? was : new Queue();
      (vars[k] as Queue).queue.splice(0, Infinity, ...items);
    } else if (Array.isArray(was) && Array.isArray(v)) vars[k] = was.splice(0, was.length, ...v) && was;
    else if (isPlain(was) && was !== null && typeof was === "object" && v !== null && typeof v === "object") {
      for (const key of Object.keys(was)) delete was[key];
      vars[k] = Object.assign(was, v);
    }
  }
  setVars(vars);
  Object.assign(environment, env);
}

function isPlain(v: unknown): boolean {
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return true;
  if (Array.isArray(v)) return v.every(isPlain);
  const proto = typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
  return (proto === Object.prototype || proto === null) && Object.values(v as object).every(isPlain);
}

const selection = (): LocustSelection => inputs.locust ?? {};
// A worker runs the module's top level silently when the command's process ran it (its prints once).
output.quiet = selection().heard === true;

/** `__file__`: the locustfile's path as the command line gave it, or that of `path` in its folder. */
export function locustPath(path?: string): string {
  const file = selection().file ?? "locustfile.py";
  return path === undefined ? file : join(dirname(file), path);
}

/** What a redirect's hops are named: the first request's name and this (stats.ts folds them into it). */
export const REDIRECTED = " (redirected)";

const current = new AsyncLocalStorage<Session>();
const NOW_MS = Symbol.for("loadlab.nowMs");
const nowMs = (s: Session): number => (s as { [NOW_MS]?: () => number })[NOW_MS]?.() ?? performance.now();
type EngineSession = Session & {
  request(method: string, target: string, options: RequestOptions, then: Client): Promise<any>;
  waitingOnOwnCode(): boolean;
  tally(name: string, n: number): void;
};

/** Locust's greenlets: one user's code runs at a time in an isolate, from one request or sleep on. */
let running = false;
/** Who waits for the turn, three slots each: resolver, and for an answer its client and response. */
const waiting: unknown[] = [];
let waitingAt = 0, waitingEnd = 0;
const wait = (go: unknown, client: Client | null, r: Response | null) =>
  void (waiting[waitingEnd++] = go, waiting[waitingEnd++] = client, waiting[waitingEnd++] = r);
const queued = (go: unknown) => wait(go, null, null);
function acquire(): Promise<void> | undefined {
  return running ? new Promise(queued) : void (running = true);
}
/** The turn goes to the first waiting: resolved, or an answer made and resolved (arrived). */
function release(): void {
  if (waitingAt === waitingEnd) return void (running = false, waitingAt = waitingEnd = 0);
  const go = waiting[waitingAt] as (v: unknown) => void, client = waiting[waitingAt + 1] as Client | null;
  const r = waiting[waitingAt + 2] as Response;
  waiting[waitingAt] = waiting[waitingAt + 1] = waiting[waitingAt + 2] = null;
  waitingAt += 3;
  if (client === null) return go(undefined);
  try {
    go(client.__answer(r));
  } catch (err) {
    go(Promise.reject(err));
  }
}
/** `io` awaited as a greenlet waits: the other users run meanwhile, this one on once it is its turn. */
function yielding<T>(io: Promise<T>): Promise<T> {
  release();
  return io.then((v) => acquire()?.then(() => v) ?? v, regainThrowing);
}
function regainThrowing(err: unknown): Promise<never> {
  return (acquire() ?? Promise.resolve()).then(() => Promise.reject(err));
}

MODULES.time.sleep = async (seconds: number) => {
  const s = current.getStore(), endMs = performance.now() + Number(seconds) * 1000;
  if (s === undefined) return void await yielding(new Promise((go) => setTimeout(go, Number(seconds) * 1e3)));
  stopsHere(s);
  await yielding(s.sleep(Math.max(0, endMs - performance.now())));
  // The load's end woke it: a task goes on until --stop-timeout, so its sleep does (Locust wakes a wait).
  if (s.stopping.aborted && performance.now() < endMs) {
    await yielding(s.sleep(Math.max(0, Math.min(endMs, killAtMs) - performance.now())));
    stopsHere(s);
  }
};

Object.assign(MODULES.queue, { Queue: () => new Queue(), SimpleQueue: () => new Queue() });
// `time.sleep` finds its session by context, which costs each task a switch: made once the file read `time`.
let timeRead = false;
for (
  const [name, m] of [["time", MODULES.time], ["gevent", MODULES.gevent], ["queue", MODULES.queue]] as const
) {
  Object.defineProperty(MODULES, name, { get: () => (timeRead = true, m), enumerable: true });
}

let stopTimeoutMs = 0;
let killAtMs = Infinity;

/** As Locust stops a user at the end (a greenlet killed at its next wait), unless in its `on_stop`. */
function stopsHere(s: Session): void {
  if (s.stopping.aborted && performance.now() >= killAtMs && s.state.final !== true) throw new GreenletExit();
}

export class StopUser extends Error {}
/** A user killed at the end, in a wait: gevent's `GreenletExit`, which `except Exception` lets by. */
class GreenletExit extends StopUser {
  override name = "GreenletExit";
}
export class RescheduleTask extends Error {}
export class InterruptTaskSet extends Error {
  readonly reschedule: boolean;
  constructor(...a: unknown[]) {
    super("interrupt");
    this.reschedule = bool(args(a, ["reschedule"], [true])[0]);
  }
}

type Fn = ((...a: any[]) => any) & { locustWeight?: number; locustTags?: string[]; locustNext?: unknown[][] };

export function task(weight: unknown = 1): any {
  if (typeof weight === "function") return task(1)(weight);
  return (fn: Fn) => {
    // As Locust's: a task named run would take the place of the loop that runs the tasks.
    if (fn.name === "run") throw new PyError("Exception", `User.run() ${RUN_IS_LOCUSTS}`);
    return Object.assign(fn, { locustWeight: Number(weight) });
  };
}
const RUN_IS_LOCUSTS =
  "is a method used internally by Locust, and you must not override it or register it as a task";

export function transition(name: string, ...a: unknown[]) {
  return transitions([[name, args(a, ["weight"], [1])[0]]]);
}

/** `@transitions({name: weight})` or of a list of names and `(name, weight)` pairs. */
export function transitions(to: object) {
  const pairs = (Array.isArray(to) ? to : Object.entries(to)).map((t) => Array.isArray(t) ? t : [t, 1]);
  return (fn: Fn) => Object.assign(fn, { locustNext: [...pairs, ...(fn.locustNext ?? [])] });
}

export function tag(...names: string[]) {
  return (fn: Fn) => Object.assign(fn, { locustTags: [...(fn.locustTags ?? []), ...names] });
}

type Paced = { __cpLastRun: number; __cpLastWait?: number };
type WaitTime = (this: Paced) => number;

/** Marks Locust's wait time functions: a class attribute of the file's own function is bound instead. */
const WAIT = Symbol("wait");
const waitTime = (fn: WaitTime): WaitTime => Object.assign(fn, { [WAIT]: true });

export const between = (min: number, max: number) => waitTime(() => min + Math.random() * (max - min));
export const constant = (seconds: number) => waitTime(() => seconds);
export const constant_pacing = (seconds: number) =>
  waitTime(function (this: Paced) {
    // As Locust's: what ran since the last wait was due to end, so a late wake-up shortens the next wait.
    const nowS = performance.now() / 1000;
    const ran = nowS - this.__cpLastRun - (this.__cpLastWait ?? 0);
    this.__cpLastRun = nowS;
    return this.__cpLastWait = Math.max(0, seconds - ran);
  });
export const constant_throughput = (perSecond: number) => constant_pacing(1 / perSecond);

/** `locust.event.EventHook`: a file's own event. */
export class EventHook {
  readonly fns: Fn[] = [];
  add_listener(fn: Fn): Fn {
    return this.fns.push(fn), fn;
  }
  fire(kw?: Kw): Promise<void> {
    return fire([...this.fns], kw?.values ?? {});
  }
}

/**
 * `events.request`: a sample a file times itself and fires (a client of its own) is a row of Locust's, as
 * Locust's stats listener counts it, told to the command's process (its listeners run there, as on each).
 */
class RequestHook extends EventHook {
  override fire(kw?: Kw): Promise<void> {
    const { response: _, context, exception, ...v } = kw?.values ?? {};
    const sample = {
      ...Object.fromEntries(Object.entries(v).filter(([, x]) => isPlain(x))),
      exception: exception == null || exception === false ? null : errorText(exception),
      context: isPlain(context) ? context : {},
    };
    if (requestsOut !== null) {
      return requestsOut.postMessage({ fired: Date.now(), sample }), Promise.resolve();
    }
    count(sample, Date.now());
    return fire([...this.fns], sample);
  }
}

/** A fired sample's counts by `request_type name`: requests, errors by Locust's text, times, bytes, when. */
function firedRow(type: string, name: string, firstMs: number) {
  const timesMs: number[] = [], atMs: number[] = [], errors = new Map<string, number>();
  return { type, name, firstMs, lastMs: 0, bytes: 0, timesMs, atMs, errors };
}
export const fired = new Map<string, ReturnType<typeof firedRow>>();
function count(s: Record<string, unknown>, atMs: number): void {
  const type = str(s.request_type ?? ""), name = str(s.name ?? ""), key = `${type} ${name}`;
  const row = fired.get(key) ?? fired.set(key, firedRow(type, name, atMs)).get(key)!;
  row.timesMs.push(Number(s.response_time ?? 0) || 0), row.bytes += Number(s.response_length ?? 0) || 0;
  row.lastMs = atMs, row.atMs.push(atMs);
  const why = s.exception as string | null;
  if (why !== null) row.errors.set(why, (row.errors.get(why) ?? 0) + 1);
}

/** Locust's text of a failure: a string as it is, an exception as `repr()` writes it. */
function errorText(x: unknown): string {
  if (typeof x === "string") return x;
  if (!(x instanceof Error)) return repr(x);
  const type = x instanceof PyError ? x.pyType : x.name;
  const message = x.message === type ? "" : x.message.replace(`${type}: `, "");
  // A KeyError's message is its key's repr() already.
  return `${type}(${message === "" || type === "KeyError" ? message : repr(message)})`;
}

/** Locust's `events`; `report_to_master` and `worker_report` never fire, as in one process. */
export const events = Object.fromEntries(
  LOCUST_EVENTS.map((k) => [k, k === "request" ? new RequestHook() : new EventHook()]),
);
const listeners = Object.fromEntries(LOCUST_EVENTS.map((k) => [k, events[k].fns]));

/**
 * `locust.stats`: the intervals a file may set. `--csv`'s history has a row every CSV_STATS_INTERVAL_SEC
 * (stats.ts); the others time what loadlab does not (the console's table, a flush, the web UI's charts).
 */
export const statsModule = new Proxy<Record<string, number>>({
  CSV_STATS_INTERVAL_SEC: 1,
  CSV_STATS_FLUSH_INTERVAL_SEC: 5,
  CONSOLE_STATS_INTERVAL_SEC: 2,
  HISTORY_STATS_INTERVAL_SEC: 5,
}, {
  set(o, name, value) {
    if (!(name in o)) {
      throw new PyError("AttributeError", `loadlab takes locust.stats.${Object.keys(o).join(", ")} only`);
    }
    o[name as string] = value;
    return true;
  },
});

export const log = {
  setup_logging(level: unknown): void {
    const name = str(level).toUpperCase();
    if (!LEVELS.includes(name)) {
      throw new PyError("ValueError", `Unable to configure root logger: Unknown level: '${name}'`);
    }
    MODULES.logging.level = name;
  },
};

const CATCH = Symbol("catch");
type Catch = false | "catch" | "rest";

/** A response as Locust's `HttpSession` gives it, and with `catch_response=True` its context manager. */
class LocustResponse {
  #r: Response;
  #manual: true | string | null = null;
  [CATCH]: Catch = false;
  readonly #s: Session;
  readonly #at: string;
  constructor(s: Session, r: Response, readonly method: string, at: string) {
    this.#s = s, this.#r = r, this.#at = at;
  }
  /** The URL answered, made when read: a request that no one asks it of parses no URL. */
  get url(): string {
    return new URL(this.#at, this.#s.target).href;
  }
  get status_code(): number {
    return this.#r.status;
  }
  get ok(): boolean {
    return this.#r.status > 0 && this.#r.status < 400;
  }
  /** `stream=True`'s body: requests' chunks read it once, not kept. */
  streamed = false;
  #consumed = false;
  #read(chunks = false): Response | null {
    const again = chunks ? "StreamConsumedError" : "RuntimeError";
    if (this.#consumed) {
      throw new PyError(again, chunks ? "" : "The content for this response was already consumed");
    }
    this.#consumed = chunks && this.streamed;
    this.streamed &&= chunks;
    return this.__body;
  }
  get __body(): Response | null {
    return this.#r.status === 0 ? null : this.#r;
  }
  get text(): string {
    return this.#read()?.text() ?? "";
  }
  get content(): Uint8Array {
    return this.#read()?.bytes() ?? new Uint8Array();
  }
  json(): unknown {
    return loads(this.text);
  }
  iter_lines(): string[] {
    const text = this.#read(true)?.text() ?? "";
    return text.split(/\r\n|\n|\r/).filter((l, i, all) => l !== "" || i < all.length - 1);
  }
  iter_content(...a: unknown[]): Uint8Array[] {
    const body = this.#read(true)?.bytes() ?? new Uint8Array(),
      n = (args(a, ["chunk_size", "decode_unicode"], [1, false])[0] as number) ?? body.length;
    return Array.from({ length: Math.ceil(body.length / n) }, (_, i) => body.subarray(i * n, (i + 1) * n));
  }
  get headers() {
    return mapping((k) => this.#r.headers.get(k));
  }
  get cookies(): Record<string, string> {
    this.#lacks("cookies");
    const pairs = this.#r.headers.getAll("set-cookie").map((line) => setCookiePair(line));
    return Object.fromEntries(pairs.filter((p) => p !== null));
  }
  get elapsed() {
    if (this.fast && this[CATCH]) this.#lacks("_elapsed", "ResponseContextManager");
    const ms = this.elapsedMs;
    return { total_seconds: () => ms / 1000, microseconds: Math.round(ms * 1000) };
  }
  get reason(): string {
    this.#lacks("reason");
    return this.#r.status === 0 ? "" : (STATUS_CODES[this.#r.status] ?? "");
  }
  get error(): string | null {
    return this.failureText();
  }
  /** requests' error of a response of 400 and above (its message's url the request's), or of none. */
  raise_for_status(): void {
    if (this.ok) return;
    const status = this.#r.status, why = this.#httpError(this.url);
    if (status === 0) throw new PyError("ConnectionError", this.#r.failure?.message ?? "no response");
    if (why !== null) throw Object.assign(new PyError("HTTPError", why), { response: this });
  }
  #httpError(url: string): string | null {
    const status = this.#r.status, side = status < 500 ? "Client" : "Server";
    return status < 400 ? null : `${status} ${side} Error: ${STATUS_CODES[status] ?? ""} for url: ${url}`;
  }
  /** The failure Locust reports: its url the request's name, so that a name's failures are one entry. */
  failureText(): string | null {
    if (this.#r.status === 0) return `ConnectionError(${this.#r.failure?.message ?? "no response"})`;
    // A FastHttpUser's client (geventhttpclient's) fails a status by its own exception.
    if (this.fast && this.#r.status >= 400) return `LocustBadStatusCode(code=${this.#r.status})`;
    const why = this.#httpError(this.name);
    return why === null ? null : `HTTPError('${why}')`;
  }
  success(): void {
    this.#manual = true;
  }
  failure(why: unknown): void {
    this.#manual = `${why instanceof PyError ? why.pyType : "CatchResponseError"}(${repr(str(why))})`;
  }
  name = "";
  elapsedMs = 0;
  context: Record<string, unknown> | undefined = undefined;
  /** A FastHttpUser's: Locust's FastResponse lacks some of requests' members. */
  fast = false;
  #lacks(name: string, type = "FastResponse"): void {
    if (this.fast) throw new PyError("AttributeError", `'${type}' object has no attribute '${name}'`);
  }
  js: unknown = null;
  __enter__(): this {
    return this;
  }
  /** The end of `with`: the outcome reported; whether an error is swallowed (`rest()`'s, as a failure). */
  __exit__(_type: unknown, err: unknown): boolean {
    if (!this[CATCH]) return false;
    const rest = this[CATCH] === "rest" && err !== null && !(err instanceof StopUser);
    const assertion = (err as PyError | null)?.pyType === "AssertionError";
    if (rest) this.failure(assertion ? str(err) || "Assertion failed" : String(err));
    if (this.#manual !== null) {
      report(this.#s, this, this.#manual === true ? null : this.#manual);
      return rest;
    }
    if (err === null) report(this.#s, this, this.failureText());
    else if (!(err instanceof StopUser)) this.#s.check(true, UNREPORTED);
    return false;
  }
}

/** Where a worker tells the command's process each request, whose `request` listeners run there. */
const REQUESTS_CHANNEL = "loadlab-locust-requests";
/** Null when no command's process listens: the listeners run here. */
let requestsOut: BroadcastChannel | null = null;

/** The tag carrying a request's method as the file spells it, when not in capitals: its stats row's type. */
export const SPELLED = "locust_method";

/** `--reset-stats`: when Locust resets (as its last user spawns); a request before it is BEFORE_RESET's. */
let resetAtMs = 0;
export const BEFORE_RESET = " (before --reset-stats)";

function report(s: Session, r: LocustResponse, why: string | null): void {
  if (why !== null) s.check(false, why);
  if (listeners.request.length === 0) return;
  const meta = { request_type: r.method, name: r.name, response_time: r.elapsedMs, url: r.url };
  // Read as the listeners' own, not the user's: a stream's length is Locust's 0 (no Content-Length read).
  const response = { status_code: r.status_code, text: r.__body?.text() ?? "", ok: r.ok };
  const length = r.streamed ? 0 : r.content.length;
  const more = { response_length: length, response, exception: why, context: r.context ?? {} };
  if (requestsOut === null) void fire(listeners.request, { ...meta, ...more });
  else requestsOut.postMessage({ ...meta, ...more });
}

const SHARED_CHANNEL = "loadlab-locust-shared";

/**
 * In the command's process: `init` runs, `test_start` as the first user starts (what it left given to the
 * load isolate), `request` on each request the load tells, so what it counts is the whole run's. The function
 * returned waits until no request came for QUIET_MS and stops.
 */
export async function listenHere(): Promise<() => Promise<void>> {
  const before = JSON.stringify(varsOf());
  await fire(listeners.init, { environment });
  const shares = runChannel(SHARED_CHANNEL);
  const sel = selection();
  // The last batch's spawn is the reset (a few ms early: a user of it that starts sooner resets then).
  const spawnMs = beforeLastBatch(sel) / (sel.spawnRate ?? 1) * 1000;
  shares.onmessage = async (e: MessageEvent<number>) => {
    await fire(listeners.test_start, { environment });
    shares.postMessage({ ...shared(before), resetAtMs: sel.resetStats ? e.data + spawnMs - 30 : undefined });
    // A module queue's later put() (a request listener's) is the load isolate's, where the users get().
    forEachQueue((q, k) => q.forward = (x) => shares.postMessage({ put: k, x }));
  };
  if (sel.resetStats) statsReset = { afterSec: spawnMs / 1000 };
  const channel = runChannel(REQUESTS_CHANNEL);
  let lastMs = performance.now();
  channel.onmessage = (e: MessageEvent<Record<string, any>>) => {
    lastMs = performance.now();
    if (e.data.fired !== undefined) count(e.data.sample, e.data.fired);
    void fire(listeners.request, e.data.sample ?? e.data);
  };
  return async () => {
    while (performance.now() - lastMs < QUIET_MS) await new Promise((r) => setTimeout(r, QUIET_MS / 4));
    forEachQueue((q) => q.forward = undefined);
    channel.close(), shares.close();
  };
}

const forEachQueue = (fn: (q: Queue, name: string) => void) =>
  Object.entries(varsOf()).forEach(([k, v]) => v instanceof Queue && fn(v, k));

/** As Locust's spawner: floor(rate) users every floor(rate)/rate s; the users before its last batch. */
function beforeLastBatch(sel: LocustSelection): number {
  const batch = Math.max(1, Math.floor(sel.spawnRate ?? 1));
  return (Math.ceil((sel.userCount ?? 1) / batch) - 1) * batch;
}

export let statsReset: { afterSec: number } | null = null;
const QUIET_MS = 200;

let sharedHere: Promise<void> | undefined;
function sharedFromCommand(): Promise<void> {
  return sharedHere ??= new Promise((done) => {
    const channel = runChannel(SHARED_CHANNEL);
    channel.onmessage = (e: MessageEvent<Shared & { put?: string; x?: unknown }>) => {
      if (e.data.put === undefined) return void (adopt(e.data), done());
      const q = varsOf()[e.data.put];
      if (q instanceof Queue) q.put(e.data.x);
    };
    channel.postMessage(Date.now()); // the first user's start: the run's, as Locust's spawner's
  });
}

/**
 * `queue.Queue`: the load isolate's, as Python's one process shares it; what the top level, `init` or
 * `test_start` left in a module global's is given to the load (`adopt`). `get()` waits as a greenlet waits,
 * for a `put()` or its `timeout`, then raises `Empty`.
 */
class Queue {
  queue: unknown[] = [];
  waiting: Array<(t: Taken) => void> = [];
  /** In the command's process once the load runs: where its put() goes. */
  forward?: (x: unknown) => void;
  put(x: unknown): void {
    if (this.forward !== undefined) return this.forward(x);
    const next = this.waiting.shift();
    next === undefined ? this.queue.push(x) : next({ x });
  }
  get(...a: unknown[]): unknown {
    const [block, timeout] = args(a, ["block", "timeout"], [true, null]);
    const stop = current.getStore()?.stopping, Empty = MODULES.queue.Empty as ErrorConstructor;
    if (this.queue.length > 0) return this.queue.shift();
    if (!bool(block)) throw new Empty();
    return yielding(orStop(taken(this, timeout), stop)).then((t) => {
      if ("x" in t) return t.x;
      throw stop?.aborted ? new GreenletExit() : new Empty();
    });
  }
  get_nowait(): unknown {
    return this.get(false);
  }
  qsize(): number {
    return this.queue.length;
  }
  empty(): boolean {
    return this.queue.length === 0;
  }
  full = () => false;
  task_done(): void {}
  toJSON(): unknown {
    return { [QUEUE_KEY]: this.queue };
  }
}
Object.assign(Queue.prototype, { put_nowait: Queue.prototype.put });
type Taken = { x?: unknown };
const QUEUE_KEY = "__queue";

/** The next item put in empty `q`, or `{}` when none came in `timeoutS` (None: until one comes). */
function taken(q: Queue, timeoutS: unknown): Promise<Taken> {
  return new Promise((go) => {
    const give = (t: Taken) => {
      if (q.waiting.includes(give)) q.waiting.splice(q.waiting.indexOf(give), 1);
      clearTimeout(timer), go(t);
    };
    const timer = timeoutS == null ? undefined : setTimeout(() => give({}), Number(timeoutS) * 1000);
    q.waiting.push(give);
  });
}

/** `got`, or `{}` once `stop` (the load's end) aborts. */
function orStop(got: Promise<Taken>, stop?: AbortSignal): Promise<Taken> {
  if (stop === undefined) return got;
  let end!: () => void;
  const stopped = new Promise<Taken>((go) =>
    stop.addEventListener("abort", end = () => go({}), { once: true })
  );
  return Promise.race([got, stopped]).finally(() => stop.removeEventListener("abort", end));
}

const NO_OPTIONS: Record<string, unknown> = Object.freeze({});

/** The keywords `self.client`'s requests take (convert.ts refuses others at their line). */
export const REQUEST_KEYS =
  "name headers params json data files cookies timeout allow_redirects catch_response auth verify stream context"
    .split(" ");

/** `self.client`: Locust's `HttpSession` on the session's connection, its cookies the user's jar. */
class Client {
  /** The session of its user's task in progress. */
  __s: Session | null = null;
  fast = false;
  base_url = "";
  user: { host?: unknown } | null = null;
  headers: Record<string, string> = {};
  auth: unknown = null;
  request_name: string | null = null;
  rename_request(name: unknown) {
    return {
      __enter__: () => this.request_name = str(name),
      __exit__: () => (this.request_name = null, false),
    };
  }
  /** The user's cookie jar (requests' `RequestsCookieJar`: `get`, `in`, `[k]`, `set`, `clear`). */
  get cookies() {
    const jar = this.__s!.cookies, set = (k: unknown, v: unknown) => jar.set(str(k), str(v));
    const update = (d: object) => Object.entries(d).forEach(([k, v]) => set(k, v));
    return mapping((k) => jar.get(k), { set, __setitem__: set, update, clear: () => jar.clear() });
  }
  static {
    // `get(url, **kw)` and the like; `post(url, data, json, **kw)` and the like; `url=` as requests takes it.
    for (const verb of ["GET", "HEAD", "DELETE", "OPTIONS", "POST", "PUT", "PATCH"]) {
      const send = function (this: Client, url: string | Kw, ...a: unknown[]): Promise<LocustResponse> {
        if (url instanceof Kw) return this.request(verb, url);
        // Keywords alone (`post(url, json=...)`): as given; `data` and `json` unset read as None.
        if (verb[0] !== "P" || (a.length === 1 && a[0] instanceof Kw)) {
          return a.length === 0 ? this.request(verb, url) : this.request(verb, url, ...a);
        }
        const [data, json, kw] = args(a, ["data", "json"], [null, null], false, true);
        return this.request(verb, url, new Kw({ ...kw as object, data, json }));
      };
      Object.defineProperty(this.prototype, verb.toLowerCase(), { value: send });
    }
  }
  /** One request, its answer made in a continuation, not an async frame (1 KB of saved locals). */
  request(method: string, url: string | Kw, ...a: unknown[]): Promise<LocustResponse> {
    if (typeof url !== "string") { // `request(method=..., url=...)`, as requests takes them
      const given = [method, url, ...a].filter((x) => x !== undefined);
      const [m, u, kw] = args(given, ["method", "url"], [], false, true) as [string, string, Kw["values"]];
      return this.request(m, u, new Kw(kw));
    }
    // Keywords alone are read in place (no copy: nothing here writes to them).
    let o = a.length === 0
      ? NO_OPTIONS
      : a.length === 1 && a[0] instanceof Kw
      ? a[0].values
      : (args(a, [], [], false, true) as [Record<string, unknown>])[0];
    if (this.request_name !== null && o.name == null) o = { ...o, name: this.request_name };
    for (const k in o === NO_OPTIONS ? undefined : o) {
      if (REQUEST_KEYS.includes(k)) continue;
      throw new PyError("TypeError", `self.client: ${k}= is not one the subset sends (docs/LOCUST.md)`);
    }
    const s = this.__s!;
    stopsHere(s);
    let path = str(url);
    const given = path, host = this.user?.host;
    if (host !== this.#host) this.#host = host, this.#hostPath = /^https?:\/\/[^/]+\/./.test(str(host ?? ""));
    // Locust's rule: what is not an http(s):// URL follows the base, its user's host ("" is the host's root),
    // and a host with a path (-H http://h/api) is put before "/books" too.
    const hosted = this.#hostPath && this.base_url === "";
    if ((path.charCodeAt(0) !== 47 || hosted) && !/^https?:\/\//.test(path)) {
      path = (this.base_url || str(host ?? "")) + path;
    }
    const based = this.base_url !== "" && path.startsWith("/");
    if (based) path = this.base_url + path;
    const query = o.params == null ? "" : form(o.params);
    if (query !== "") path += (path.includes("?") ? "&" : "?") + query;
    if (path.search(UNQUOTED) >= 0) path = path.replace(UNQUOTED, encodeURIComponent);
    let headers: Record<string, string> | undefined;
    for (const _ in this.headers) {
      headers = { ...this.headers };
      break;
    }
    if (o.headers != null) {
      headers ??= {};
      // requests drops a header given None (a session's too); FastHttpSession sends its text.
      for (const [k, v] of Object.entries(o.headers as object)) {
        if (v == null && !this.fast) delete headers[k];
        else headers[k] = str(v);
      }
    }
    if (o.cookies != null) {
      (headers ??= {}).cookie = Object.entries(o.cookies as object).map(([k, v]) => `${k}=${str(v)}`)
        .join("; ");
    }
    const auth = o.auth ?? this.auth;
    if (Array.isArray(auth)) (headers ??= {}).authorization = `Basic ${btoa(`${auth[0]}:${auth[1]}`)}`;
    const options: RequestOptions = headers === undefined ? {} : { headers };
    // Sent upper-cased, as requests sends it; Locust's stats and listeners name it as spelled (`get`).
    if (method !== method.toUpperCase()) options.tags = { [SPELLED]: method };
    // Locust names a request by its path and query (params too; not base_url, a FastHttpUser's given URL).
    if (o.name != null) options.name = str(o.name);
    // FastHttpSession names a request by the URL as given; HttpSession by the path it sent.
    else if (this.fast && given !== path && !based) options.name = `${method.toUpperCase()} ${given}`;
    else if (based || o.params != null || path.includes("?") || (!this.fast && !path.startsWith("/"))) {
      options.name = `${method.toUpperCase()} ${pathAndQuery(path)}`;
    }
    if (resetAtMs > 0 && Date.now() < resetAtMs) {
      options.name = (options.name ?? `${method.toUpperCase()} ${pathAndQuery(path)}`) + BEFORE_RESET;
    }
    if (o.timeout != null) options.timeoutMs = builtins.sum([o.timeout].flat()) * 1000;
    if (o.json != null) options.json = o.json;
    else if (o.files != null) {
      const { body, contentType } = multipart(uploads(o.files as object, o.data as object | null), 16);
      options.body = body;
      (options.headers = headers ??= {})["content-type"] = contentType;
    } else if (typeof o.data === "string" || o.data instanceof Uint8Array) options.body = o.data;
    else if (o.data != null) {
      options.body = form(o.data);
      (headers ??= {})["content-type"] ??= "application/x-www-form-urlencoded";
      options.headers = headers;
    }
    // As requests follows a redirect (HEAD's only when asked), up to 30, the response the last one's; as
    // Locust counts it, one request under the first name (its hops' row folds into it: stats.ts).
    this.#s = s, this.#o = o, this.#path = this.#at = path, this.#options = options, this.#hop = undefined;
    this.#verb = method.toUpperCase();
    this.#hops = (o.allow_redirects == null ? this.#verb !== "HEAD" : bool(o.allow_redirects)) ? 30 : 0;
    this.#startMs = nowMs(s);
    return this.#send(s);
  }

  /** The user's host last seen, and whether it has a path past "/" (read once a host). */
  #host: unknown = undefined;
  #hostPath = false;
  // The request in flight (a user sends one at a time).
  #s: Session | null = null;
  #o = NO_OPTIONS;
  #options: RequestOptions = {};
  #path = "";
  #at = "";
  #verb = "";
  #hop: string | undefined;
  #hops = 0;
  #startMs = 0;

  /** Sent with its turn given up: taken back as it arrives, or as it rejects. */
  #send(s: Session): Promise<LocustResponse> {
    const sent = (s as EngineSession).request(this.#verb, this.#at, this.#options, this);
    release();
    return (s as EngineSession).waitingOnOwnCode() ? sent.then(undefined, regainThrowing) : sent;
  }

  /** Its request's response, made in its user's turn. */
  arrived(r: Response, settle?: (value: unknown) => void): unknown {
    if (!running) return running = true, this.__answer(r);
    if (settle === undefined) return new Promise((go) => wait(go, this, r));
    return wait(settle, this, r), settle;
  }

  /** The response of the request in flight, or the next hop's, sent. */
  __answer(r: Response): LocustResponse | Promise<LocustResponse> {
    const s = this.#s!, o = this.#o, options = this.#options;
    // Killed in its wait at the end (no --stop-timeout, or past it): Locust's user never sees this answer.
    if (s.stopping.aborted && performance.now() >= killAtMs && s.state.final !== true) {
      if (r.status !== 0) s.check(true, UNREPORTED); // without an answer the engine counted no request
      throw new GreenletExit();
    }
    const to = redirect(r);
    if (to !== null && this.#hops-- > 0) {
      this.#hop ??= (options.name ?? `${this.#verb} ${pathAndQuery(this.#path).split("?")[0]}`) + REDIRECTED;
      this.#at = new URL(to, new URL(this.#at, s.target)).href;
      if (r.status === 303 || ((r.status === 301 || r.status === 302) && this.#verb === "POST")) {
        this.#verb = "GET", delete options.body, delete options.json;
      }
      options.name = this.#hop;
      return this.#send(s);
    }
    const response = new LocustResponse(s, r, this.#options.tags?.[SPELLED] ?? this.#verb, this.#at);
    response.elapsedMs = nowMs(s) - this.#startMs;
    response.name = o.name != null ? str(o.name) : pathAndQuery(this.#path);
    response.context = o.context as Record<string, unknown> | undefined;
    response.fast = this.fast;
    response.streamed = o.stream != null && bool(o.stream);
    // Locust's length: the body's, a stream's by its Content-Length (not read).
    const length = response.streamed ? Number(r.headers.get("content-length")) || 0 : r.bytes().length;
    (s as EngineSession).tally(CONTENT_BYTES, length);
    if (bool(o.catch_response)) response[CATCH] = o.catch_response === REST ? "rest" : "catch";
    // A request the run's end cut is no failure of the server's (Locust does not report a killed user's).
    else if (r.status !== 0 || !s.ended.aborted) report(s, response, response.failureText());
    return response;
  }
}

/** `locust.clients.HttpSession(base_url, request_event, user)`: a client of the user's for another host. */
export function HttpSession(...a: unknown[]): Client {
  const [base, , user] = args(a, ["base_url", "request_event", "user"], [""]) as [string, unknown, HttpUser];
  const client = Object.assign(new Client(), { base_url: str(base) });
  return Object.defineProperty(client, "__s", { get: () => user.client.__s });
}

/** requests' `files=` (with `data=`'s fields): each a file, `(filename, content[, type])` or content. */
function uploads(files: object, data: object | null): FormPart[] {
  const parts: FormPart[] = Object.entries(data ?? {}).map(([name, v]) => ({ name, text: str(v) }));
  for (const [name, v] of Object.entries(files)) {
    const [filename, content, type] = Array.isArray(v) ? v : [basename(v?.name ?? name), v];
    const bytes = typeof content?.read === "function" ? content.read() : content;
    parts.push({
      name,
      filename: str(filename),
      type: type == null ? "application/octet-stream" : str(type),
      bytes: typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes,
    });
  }
  return parts;
}

/** A dict as a query or a form, as requests and geventhttpclient encode one: its None values dropped. */
function form(values: unknown): string {
  const pairs = Object.entries(values as object).flatMap(([k, v]) =>
    [v].flat().filter((x) => x != null).map((x) => [k, str(x)])
  );
  return new URLSearchParams(pairs).toString();
}

/** What requests' and geventhttpclient's `requote_uri` quote: a space, a non-ASCII letter, a lone %. */
const UNQUOTED = /[^\w\-.~!#$%&'()*+,/:;=?@[\]]|%(?![0-9A-Fa-f]{2})/gu;

function redirect(r: Response): string | null {
  return r.status >= 300 && r.status < 400 && r.status !== 304 ? r.headers.get("location") : null;
}

function pathAndQuery(path: string): string {
  if (!path.startsWith("http://") && !path.startsWith("https://")) return path;
  const url = new URL(path);
  return url.pathname + url.search;
}

/** One task set or user's tasks: a function by its weight, or a TaskSet class (`set`, once read). */
type TaskEntry = { run: Fn; weight: number; method: boolean; set?: boolean };

class Runs {
  __cpLastRun = performance.now() / 1000;
  on_start(): void {}
  on_stop(): void {}
  /** Python's constructor (`def __init__(self, environment)` or `(self, parent)`), run as it starts. */
  __init___py(..._a: unknown[]): void {}
}

/** Locust's `TaskSet`: runs within its user (`self.user`, `self.client`) until `interrupt()`. */
export class TaskSet extends Runs {
  declare user: HttpUser;
  declare parent: HttpUser | TaskSet;
  __next = 0;
  __queue: TaskEntry[] = [];
  get client(): Client {
    return this.user.client;
  }
  /** `schedule_task(fn, first=False)`: `fn` (a method or a task set) runs next, or after those queued. */
  schedule_task(run: Fn, ...a: unknown[]): void {
    const entry = { run, weight: 1, method: true, set: run.prototype instanceof TaskSet };
    this.__queue[bool(args(a, ["first"], [false])[0]) ? "unshift" : "push"](entry);
  }
  interrupt(...a: unknown[]): never {
    throw new InterruptTaskSet(...a);
  }
  wait_time(): number {
    return this.parent.wait_time();
  }
}

export class SequentialTaskSet extends TaskSet {}

export class MarkovTaskSet extends TaskSet {
  __current?: TaskEntry;
}

export function run_single_user(): never {
  throw new PyError("RuntimeError", "run_single_user runs under Python only");
}

/** Locust's `User`: no client of its own (a task of its that sends raises, as on Locust). */
export class User extends Runs {
  static abstract = true;
  /** The task sets entered, innermost last. */
  __stack: TaskSet[] = [];
  wait_time(): number {
    return 0;
  }
  get environment() {
    return environment;
  }
}

/** Locust's `HttpUser` (and `FastHttpUser`: loadlab sends both the same way). */
export class HttpUser extends User {
  client: Client = Object.assign(new Client(), { user: this });
  /** Locust's `rest()`: a JSON request whose `with` block's failed assertion fails it; `r.js` its JSON. */
  async rest(method: string, url: string, ...a: unknown[]): Promise<LocustResponse> {
    const [given, kw] = args(a, ["headers"], [null], false, true) as [object | null, Record<string, unknown>];
    const headers: Record<string, unknown> = { ...given };
    const has = (k: string) => Object.keys(headers).some((h) => h.toLowerCase() === k);
    if (!has("content-type")) headers["Content-Type"] = "application/json";
    if (!has("accept")) headers.Accept = "application/json";
    const r = await this.client.request(method, url, new Kw({ ...kw, headers, catch_response: REST }));
    if (r.status_code === 0) r.failure(r.error);
    else if (r.text !== "") {
      try {
        r.js = r.json();
      } catch (err) {
        r.failure(
          `Could not parse response as JSON. ${r.text.slice(0, 250)}, response code ${r.status_code}, ` +
            `error ${(err as Error).message}`,
        );
      }
    }
    return r;
  }
  /** `rest()` with `_=<ms>` on the query (a cache breaker), named without it unless `name=` is given. */
  rest_(method: string, url: string, ...a: unknown[]): Promise<LocustResponse> {
    const [name, kw] = args(a, ["name"], [null], false, true) as [unknown, Record<string, unknown>];
    const sep = str(url).includes("?") ? "&" : "?";
    const named = name ?? `${str(method).toUpperCase()} ${url}${sep}_=...`;
    return this.rest(method, `${url}${sep}_=${Date.now()}`, new Kw({ ...kw, name: named }));
  }
}

/** Flask's names (a `Blueprint` at the top level, its `@route`s): inert, as no web UI serves them. */
export const inert: any = new Proxy(function () {}, { get: () => inert, apply: () => inert });

/** `self.environment`: the host, the options, its runner and, to the end's listeners, the run's `stats`. */
const environment = {
  host: null as string | null,
  parsed_options: {} as Record<string, unknown>,
  runner: new (class LocalRunner {
    user_count = 0;
    get stats() {
      return environment.stats;
    }
    get environment() {
      return environment;
    }
    quit(): never {
      const channel = runChannel(TEST_ABORT_CHANNEL);
      channel.postMessage("environment.runner.quit()"), channel.close();
      throw new StopUser();
    }
  })(),
  stats: null as unknown,
  events,
  process_exit_code: null as number | null,
  /** Locust's web UI, which a headless run has not: `if environment.web_ui:` skips what extends it. */
  web_ui: null,
};

const ENVIRONMENT_OWN = Object.keys(environment);

/** Runs the end's listeners with `stats` as `environment.stats`; the `process_exit_code` they set. */
export async function locustEnd(stats: unknown): Promise<number | null> {
  environment.stats = stats;
  await fire([...listeners.test_stopping, ...listeners.test_stop, ...listeners.quitting.toReversed()], {
    environment,
  });
  return environment.process_exit_code === null ? null : Number(environment.process_exit_code);
}

/** Calls `fns` with `kw` as Locust fires an event: a listener that raises is logged, and the next runs. */
async function fire(fns: Fn[], kw: Record<string, unknown>): Promise<void> {
  for (const fn of fns) {
    try {
      await fn(new Kw(kw));
    } catch (err) {
      console.error(`ERROR: Uncaught exception in event handler: ${(err as Error).stack ?? err}`);
    }
  }
}

/** `catch_response`'s value `rest()` passes: Locust's response context manager with rest's rules. */
const REST = Symbol("rest");

export class FastHttpUser extends HttpUser {
  override client: Client = Object.assign(new Client(), { fast: true, user: this });
}

/** The user Locust makes of a pytest function: run again and again, no wait; an HTTPError ends a run. */
export function pytestUser(test: Fn, fast: boolean): typeof HttpUser {
  const cls = class extends (fast ? FastHttpUser : HttpUser) {
    override client = Object.assign(new Client(), { fast, base_url: environment.host ?? "" });
    async __test() {
      try {
        await test(this.client);
      } catch (err) {
        if ((err as PyError).pyType !== "HTTPError") throw err;
      }
    }
  };
  decorate(cls, "__test", [task]);
  return Object.defineProperty(cls, "name", { value: test.name });
}

/** `locust.runners`: a loadlab run is one process, its runner a `LocalRunner`. */
export class MasterRunner {}
export class WorkerRunner {}
export const LocalRunner = environment.runner.constructor;

/** Locust's `LoadTestShape`: `tick()` read once a second of a run's time. */
export class LoadTestShape {
  runner = environment.runner;
  __runS = 0;
  __users = 0;
  reset_time(): void {}
  get_run_time(): number {
    return this.__runS;
  }
  get_current_user_count(): number {
    return this.__users;
  }
}

/** The users a shape asks for over the run, as points `[ms, users]` (a step each), ending where it ends. */
export type ShapePoints = Array<[number, number]>;

/**
 * The points of the file's shape over at most `limitMs`, as Locust's shape worker runs it: a change ramps
 * at its spawn rate while the ticks go on each second. Null without a shape.
 */
export async function shapePoints(limitMs: number): Promise<ShapePoints | null> {
  if (shapeClass === undefined) return null;
  const shape = new (shapeClass as any)() as LoadTestShape & { tick(): unknown };
  const points: ShapePoints = [];
  // Each user's class by its number (the load's isolates read it), as Locust's dispatcher picks them: the
  // next of its classes' order, begun again where a tick names other classes; the last stops first.
  const slots: string[] = selection().vuClasses = [];
  const orderOf = (order: UserClass[]) => ({ key: keyOf(order), order, at: 0, list: [] as UserClass[] });
  const keyOf = (classes: UserClass[]) => classes.map((c) => c.name).sort().join();
  let from = orderOf(runClasses);
  // The order is read ahead, doubling: a shape ramping for hours adds users by the hundred thousand.
  const nextClass = () => {
    if (from.at >= from.list.length) from.list = classOrder(from.order, Math.max(64, 2 * from.list.length));
    return from.list[from.at++].name;
  };
  let atS = 0, users = 0, last = "";
  // The users a ramp reached by `atS`: a ramp runs beside the ticks, a point each batch.
  const reached = () => {
    let i = points.length - 1;
    while (i >= 0 && points[i][0] > atS * 1000) i--;
    return i < 0 ? 0 : points[i][1];
  };
  // Locust's shape worker ticks each second while its runner ramps beside it; a tick that changes the
  // target ends the ramp where it got to (its spawning greenlet is killed) and ramps from there.
  for (; atS * 1000 < limitMs; atS++) {
    // Read a few ms past its second, as Locust's tick wakes (`run_time > 14` is true at the 14th tick).
    shape.__runS = atS + 0.005, shape.__users = reached();
    const tick = await shape.tick();
    if (tick == null) break;
    const [target, rate, classes] = tick as [number, number, UserClass[] | null];
    if (classes != null && keyOf(classes) !== from.key) from = orderOf(classes);
    if (`${target},${rate}` === last) continue;
    last = `${target},${rate}`;
    users = reached();
    while (points.length > 0 && points.at(-1)![0] > atS * 1000) points.pop();
    const batch = Math.max(1, Math.floor(rate)), everyS = rate > 0 ? batch / rate : 0;
    for (let k = 0; users !== Math.round(target); k++) {
      users += Math.max(-batch, Math.min(batch, Math.round(target) - users));
      while (slots.length > users) slots.pop();
      while (slots.length < users) slots.push(nextClass());
      points.push([Math.round((atS + k * everyS) * 1000), users]);
    }
  }
  const endMs = Math.min(limitMs, Math.round(atS * 1000));
  while (points.length > 0 && points.at(-1)![0] > endMs) points.pop();
  points.push([endMs, reached()]);
  return points;
}

let shapeClass: unknown;
/** The run's user classes (the ones asked, else all): a shape's users' before a tick names others. */
let runClasses: UserClass[] = [];

type UserClass = typeof HttpUser & { weight?: number; fixed_count?: number; abstract?: boolean };

/** The tasks of a user or task set class, filtered by tags as Locust's (a class's tags are its tasks'). */
function tasksOf(cls: any, sel: LocustSelection, inherited: string[] = cls.locustTags ?? []): TaskEntry[] {
  const found: TaskEntry[] = [], levels: object[] = [];
  const methods = new Set<unknown>(), taken = new Set<string>();
  for (let p = cls.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) levels.unshift(p);
  const value = (key: string) => {
    for (let p = cls.prototype; p; p = Object.getPrototypeOf(p)) {
      const d = Object.getOwnPropertyDescriptor(p, key);
      if (d !== undefined) return d.value;
    }
  };
  for (const p of levels) for (const key of Object.getOwnPropertyNames(p)) methods.add(value(key));
  // As Locust's metaclass: a base's tasks first, then a class's `tasks`, then its @task methods in order.
  for (const p of levels) {
    const declared = Object.hasOwn(p, "tasks") ? (p as { tasks: any }).tasks : null;
    const pairs: Array<[unknown, number]> = declared == null
      ? []
      : Array.isArray(declared)
      ? declared.map((t) => [t, 1])
      : declared.__pairs ?? [];
    for (const [run, weight] of pairs) {
      found.push({ run: run as Fn, weight: Number(weight), method: methods.has(run) });
    }
    for (const key of Object.getOwnPropertyNames(p)) {
      const fn = value(key); // the class's own, where it overrides a base's
      if (taken.has(key) || key === "constructor" || key === "tasks" || typeof fn !== "function") continue;
      taken.add(key);
      if (fn.locustWeight !== undefined || fn.locustNext) {
        found.push({ run: fn, weight: fn.locustWeight ?? 1, method: true });
      }
    }
  }
  return found.filter((e) => {
    const tags = [...inherited, ...e.run.locustTags ?? []];
    if ((e.set = e.run.prototype instanceof TaskSet)) return tasksOf(e.run, sel, tags).length > 0;
    if (sel.tags && !tags.some((t) => sel.tags!.includes(t))) return false;
    return !(sel.excludeTags && tags.some((t) => sel.excludeTags!.includes(t)));
  });
}

const TASKS = Symbol("tasks");

/** Picks a task: the first one scheduled, else by weight (or the next of a sequential task set). */
function pick(owner: any, tasks: TaskEntry[]): TaskEntry {
  if (owner.__queue?.length > 0) return owner.__queue.shift();
  // As Locust's: a class without a task (with the tags asked) raises at each task, and its user waits.
  if (tasks.length === 0) {
    const what = owner instanceof TaskSet
      ? " use the @task decorator or set the 'tasks' attribute of the TaskSet"
      : " Use the @task decorator or set the 'tasks' attribute of the User (or mark it as abstract = True if " +
        "you only intend to subclass it)";
    throw new PyError("Exception", `No tasks defined on ${owner.constructor.name}.${what}`);
  }
  if (owner instanceof SequentialTaskSet) {
    // Locust's list of a sequential set holds a task `weight` times in a row: it runs that many times.
    let at = owner.__next++ % tasks.reduce((t, e) => t + e.weight, 0);
    return tasks.find((e) => (at -= e.weight) < 0)!;
  }
  if (owner instanceof MarkovTaskSet) {
    const now = owner.__current ?? tasks[0];
    const [name] = drawn((now.run as Fn).locustNext!, (t) => Number(t[1]));
    owner.__current = tasks.find((t) => t.run === (owner as any)[name as string]);
    return now;
  }
  return tasks.length === 1 ? tasks[0] : drawn(tasks, weightOf);
}
const weightOf = (e: TaskEntry) => e.weight;

function drawn<T>(items: T[], weight: (t: T) => number): T {
  let r = Math.random() * items.reduce((t, e) => t + weight(e), 0);
  return items.find((e) => (r -= weight(e)) < 0) ?? items[items.length - 1];
}

/** The users' classes for each virtual user, in Locust's order: `fixed_count` first, then by weight. */
export function classOrder(users: UserClass[], count: number): UserClass[] {
  const fixed = users.filter((u) => (u.fixed_count ?? 0) > 0);
  const fixedCount = Math.min(count, fixed.reduce((t, u) => t + u.fixed_count!, 0));
  const order = klOrder(fixed.map((u) => [u, u.fixed_count!]), fixedCount);
  const rest = users.filter((u) => !fixed.includes(u)).map((u): [UserClass, number] => [u, u.weight ?? 1]);
  return order.concat(klOrder(rest, count - order.length));
}

/** `n` of `shares` as Locust's dispatcher orders them: each next lowers the KL divergence most. */
function klOrder(shares: Array<[UserClass, number]>, n: number): UserClass[] {
  const heap = shares.filter(([, w]) => w > 0)
    .map(([u, w]) => ({ u, w, x: w + 1, d: w * Math.log2(w / (w + 1)) }));
  const out: UserClass[] = [];
  while (out.length < n && heap.length > 0) {
    // Python's heap order of (divergence, count, weight, name).
    const e = heap.reduce((b, c) =>
      c.d < b.d ||
        (c.d === b.d && (c.x < b.x || (c.x === b.x && (c.w < b.w || (c.w === b.w && c.u.name < b.u.name)))))
        ? c
        : b
    );
    out.push(e.u);
    e.d = e.w * Math.log2(e.x / (e.x + 1));
    e.x += 1;
  }
  return out;
}

/** The session module's exports for a locustfile's user classes (the converter's footer calls it). */
export function locustfile(
  all: Record<string, unknown>,
  shape: unknown,
  vars: () => Record<string, unknown>,
  set: (vars: Record<string, unknown>) => void,
) {
  shapeClass = shape, varsOf = vars, setVars = set, output.quiet = false;
  const sel = selection();
  stopTimeoutMs = sel.stopTimeoutMs ?? 0;
  const classes = Object.entries(all).filter(([, v]) =>
    typeof v === "function" && v.prototype instanceof User &&
    !(Object.hasOwn(v, "abstract") && (v as UserClass).abstract)
  ) as Array<[string, UserClass]>;
  // The classes asked (experiment.ts has checked each is one), else all.
  const users = (sel.users ?? classes.map(([n]) => n)).map((name) => classes.find(([n]) => n === name)![1]);
  if (users.length === 0) throw new Error("the locustfile has no HttpUser class (one not abstract)");
  runClasses = users;
  const order = classOrder(users, Math.max(sel.userCount ?? 1000, users.length));
  const tasks = (cls: any): TaskEntry[] =>
    Object.hasOwn(cls, TASKS) ? cls[TASKS] : cls[TASKS] = tasksOf(cls, sel);

  async function start(s: Session) {
    const given = (s.setup as { shared?: Shared } | undefined)?.shared;
    if (given !== undefined && !adopted) adopted = true, adopt(given);
    else if (sel.heard) await sharedFromCommand();
    // Locust resets as its last batch spawns, before their on_start: at the first of them here, if sooner.
    if (resetAtMs > 0 && s.vu > beforeLastBatch(sel)) resetAtMs = Math.min(resetAtMs, Date.now());
    if (killAtMs === Infinity && !s.stopping.aborted) {
      killAtMs = Number.MAX_VALUE;
      const kill = () => killAtMs = performance.now() + stopTimeoutMs;
      s.stopping.addEventListener("abort", kill, { once: true });
    }
    const placed = sel.vuClasses?.[s.vu - 1];
    const cls = placed === undefined
      ? order[(s.vu - 1) % order.length]
      : classes.find(([n]) => n === placed)![1];
    const user = new (cls as any)() as HttpUser & { on_start?: Fn };
    s.state.user = user;
    if (user.client) user.client.__s = s;
    if (s.vu === sel.userCount) {
      for (const fn of listeners.spawning_complete) await fn(new Kw({ user_count: sel.userCount }));
    }
    await user.__init___py(environment);
    try {
      if (typeof user.on_start === "function") await user.on_start();
    } catch (err) {
      // As Locust: a user whose on_start raised runs no task (StopUser: its on_stop runs).
      s.state.stopped = true;
      if (err instanceof StopUser) return await stop(s);
      s.state.final = true;
      throw err;
    }
  }

  const runTask = (user: HttpUser, owner: any, e: TaskEntry): Promise<void> =>
    e.set ? enter(user, owner, e) : e.method ? e.run.call(owner) : e.run.call(owner, owner);
  async function enter(user: HttpUser, owner: any, entry: TaskEntry): Promise<void> {
    const set = new (entry.run as any)() as TaskSet & { on_start?: Fn };
    set.user = user, set.parent = owner;
    await set.__init___py(owner);
    user.__stack.push(set);
    try {
      if (typeof set.on_start === "function") await set.on_start();
    } catch (err) {
      // As Locust: a set whose on_start raises is left (an interrupt: rescheduled); next turn enters anew.
      user.__stack.pop();
      throw err instanceof InterruptTaskSet ? new RescheduleTask() : err;
    }
    await runTask(user, set, pick(set, tasks(entry.run)));
  }

  /** A task and its wait, in its user's turn. */
  async function run(s: Session) {
    const held = acquire();
    if (held !== undefined) await held;
    try {
      const user = s.state.user as HttpUser | undefined;
      if (user === undefined || s.state.stopped) return void (await yielding(s.sleep(3_600_000)));
      if (user.client) user.client.__s = s;
      const owner: any = user.__stack.at(-1) ?? user;
      let wait = true;
      try {
        await runTask(user, owner, pick(owner, tasks(owner.constructor)));
      } catch (err) {
        if (err instanceof InterruptTaskSet) {
          await stopped(user.__stack.pop());
          wait = !err.reschedule;
        } else if (err instanceof StopUser) {
          s.state.stopped = true;
          return await stop(s);
        } else if (!(err instanceof RescheduleTask)) {
          // As Locust: the exception counts (loadlab's script error) and the user waits, then goes on.
          if (!s.stopping.aborted) await yielding(s.sleep(await waitMs(user)));
          throw err;
        }
      }
      if (!wait || s.stopping.aborted) return;
      let ms = waitMs(user);
      if (typeof ms !== "number") ms = await ms;
      if (ms > 0) await yielding(s.sleep(ms));
    } finally {
      release();
    }
  }

  /** As Locust stops a user: its task sets' `on_stop`, innermost first, then its own; once. */
  async function stop(s: Session) {
    const user = s.state.user as HttpUser | undefined;
    if (user === undefined || s.state.final === true) return;
    s.state.final = true;
    if (user.client) user.client.__s = s;
    for (let set = user.__stack.pop(); set !== undefined; set = user.__stack.pop()) await stopped(set);
    await stopped(user);
  }

  /** A task set's or user's `on_stop`: what it raises but `StopUser` is logged, as Locust's, not counted. */
  async function stopped(owner?: { on_stop?: Fn }) {
    try {
      if (typeof owner?.on_stop === "function") await owner.on_stop();
    } catch (err) {
      if (err instanceof StopUser) throw err;
      console.error(`ERROR: Uncaught exception in on_stop: ${(err as Error).stack ?? err}`);
    }
  }

  environment.host = sel.host ?? null;
  // As Locust's runner: the run's host is each user class's `host` (its requests' base, and `self.host`).
  if (sel.host !== undefined) { for (const cls of users) attr(cls, "host", sel.host); }
  MODULES.logging.level = sel.logLevel ?? "INFO";
  if (sel.logFile !== undefined) logTo(sel.logFile);
  environment.runner.user_count = sel.userCount ?? 1;
  environment.parsed_options = {
    host: environment.host,
    num_users: sel.userCount ?? 1,
    spawn_rate: sel.spawnRate ?? 1,
    run_time: sel.runTimeS ?? null,
    tags: sel.tags ?? null,
    exclude_tags: sel.excludeTags ?? null,
    stop_timeout: (sel.stopTimeoutMs ?? 0) / 1000,
    headless: true,
  };
  // A file's own options (`parser.add_argument`): their `env_var`'s value, else their default.
  const add_argument = (...a: unknown[]) => {
    const [flags, o] = args(a, [], [], true, true) as [string[], Record<string, any>];
    const given = sel.options?.[flags[0].replace(/^-+/, "")] ??
      (o.env_var == null ? undefined : scriptEnv()[o.env_var]);
    const value = given === undefined
      ? o.default ?? (o.action === "store_true" ? false : o.action === "store_false" || null)
      : /^store_(true|false)$/.test(o.action)
      ? o.action === "store_true"
      : typeof o.type === "function"
      ? o.type(given)
      : given;
    environment.parsed_options[flags.at(-1)!.replace(/^-+/, "").replaceAll("-", "_")] = value;
  };
  for (const fn of listeners.init_command_line_parser) fn(new Kw({ parser: { add_argument } }));
  if (sel.heard) requestsOut ??= runChannel(REQUESTS_CHANNEL);
  const starts = sel.heard ? [] : [...listeners.init, ...listeners.test_start];
  let adopted = false;
  const own = (fn: (s: Session) => Promise<void>) => (s: Session) => timeRead ? current.run(s, fn, s) : fn(s);
  const inTurn = (fn: (s: Session) => Promise<void>) => (s: Session) =>
    (acquire() ?? Promise.resolve()).then(() => fn(s)).finally(release);
  return {
    start: own(inTurn(start)),
    default: own(run),
    stop: own(inTurn(stop)),
    setup: starts.length === 0 ? undefined : async () => {
      const before = JSON.stringify(vars());
      for (const fn of starts) await fn(new Kw({ environment }));
      return { shared: shared(before) };
    },
  };
}

/** The wait after a task, ms (a `wait_time` of the file's is converted async). */
function waitMs(user: HttpUser): number | Promise<number> {
  const owner: any = user.__stack.at(-1) ?? user;
  const seconds = owner.wait_time();
  return seconds instanceof Promise ? seconds.then(waitOf) : waitOf(seconds);
}

function waitOf(seconds: unknown): number {
  const ms = Number(seconds) * 1000;
  if (!(ms >= 0)) throw new PyError("TypeError", "wait_time must return a number of seconds >= 0");
  return ms;
}

/** `name = value` in a class body: on its instances (its prototype) and on the class (`weight`). */
export function attr(cls: any, name: string, given: unknown): void {
  // An enum's attribute is a member of it (py_modules.ts's Enum).
  const value = typeof cls.__member === "function" && typeof given !== "function"
    ? cls.__member(name, given)
    : given;
  cls[name] = value;
  // As Python binds a function of the file's (`wait_time = lambda self: ...`) as a method of the class.
  const plain = typeof value === "function" && !(value as any)[WAIT] && !(value as any).locustWeight &&
    !(value.prototype instanceof TaskSet) && !(value.prototype instanceof User);
  cls.prototype[name] = plain ? asMethod(value) : value;
}

/** `fn` as a method: called with its object first, as Python calls a function of the class. */
function asMethod(fn: Fn): Fn {
  return function (this: unknown, ...a: unknown[]) {
    return fn.call(this, this, ...a);
  };
}

/**
 * `class C(Mixin, Base)`: the class of `bases[main]` with the others' members in Python's MRO order; a
 * mixin's `@task` is a plain method there, as Locust collects tasks from its own classes only.
 */
export function mixed(bases: any[], main: number): any {
  const cls = class extends bases[main] {};
  const order = [...bases.slice(main + 1), ...bases.slice(0, main).reverse()];
  for (const b of order) {
    const chain = [];
    for (let p = b; p && p !== Function.prototype; p = Object.getPrototypeOf(p)) chain.unshift(p);
    for (const [from, to] of chain.flatMap((c) => [[c, cls], [c.prototype, cls.prototype]])) {
      for (const key of Object.getOwnPropertyNames(from)) {
        if (["constructor", "prototype", "name", "length"].includes(key)) continue;
        if (bases.indexOf(b) > main && key in to) continue;
        const v = from[key];
        to[key] = typeof v === "function" && (v.locustWeight !== undefined || v.locustNext)
          ? function (this: unknown, ...a: unknown[]) {
            return v.apply(this, a);
          }
          : v;
      }
    }
  }
  return cls;
}

/** A method's decorators (`@task(3)`), applied from the last up, each to a function of `self` as Python's. */
export function decorate(cls: any, name: string, decorators: Array<(fn: Fn) => Fn>): void {
  let fn = cls.prototype[name];
  for (const d of [...decorators].reverse()) {
    const method = fn, plain = Object.assign((self: unknown, ...a: unknown[]) => method.apply(self, a), fn);
    Object.defineProperty(plain, "name", { value: method.name }); // `__name__`: the def's, then a wrapper's
    const out = d(plain);
    fn = Object.assign(out === plain ? method : asMethod(out), out);
    Object.defineProperty(fn, "name", { value: out.name });
  }
  cls.prototype[name] = fn;
}

export function taskDict(pairs: Array<[unknown, number]>) {
  return { __pairs: pairs };
}
