/**
 * @module
 * What a converted k6 script runs on: sessions sharing an isolate each run in an `AsyncLocalStorage`
 * context holding their `Session` (`current()`). Outside a session k6 modules use `fetch`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Session } from "../session.ts";
import type { ScriptSession } from "../sessions/session.ts";
import { addGroupDuration, countTaggedIteration, flushMetricsSoon, wantSubmetrics } from "./metrics.ts";
import { givenRunTags, setRunTags, setSystemTags, setTagSource, type VuTags } from "./tags.ts";
import {
  iterationPoints,
  iterationStarts,
  pointsOut,
  setJsonThresholds,
  writeVusPoints,
} from "./points_out.ts";
import { isolateFlags } from "./isolate_flags.ts";
import { atRunEnd, PART_ENV, runCounters } from "../run_state.ts";
import { ScriptShapeError } from "../module.ts";
import { isMainThread } from "node:worker_threads";
import { endInit, inInit, open, requireUnconverted, setScriptFolder } from "./init_files.ts";
export { openIn } from "./init_files.ts";
import { runArrayCall } from "./array_calls.ts";
import { testAborted } from "./test_abort.ts";
import { jarOf } from "../sessions/cookies.ts";
import type { CookieJar } from "../../http/cookie_jar.ts";
import { durationMsOf } from "../../../validation/duration.ts";
import { scriptEnv } from "../isolate_inputs.ts";

/** A k6 VU: its id in the whole run (`__VU`), the iterations it started and its own tags once set. */
interface K6Vu {
  id: number;
  iterations: number;
  tags?: VuTags;
  /** Its uncount from the run's active VUs once idle (k6/execution's `vusActive`). */
  idle?: ReturnType<typeof setTimeout>;
  /** Its own copy of setup()'s data, made at its first iteration: as k6's, a VU's changes stay its own. */
  data?: unknown;
}

const dataOf = (vu: K6Vu, s: Session) => "data" in vu ? vu.data : (vu.data = structuredClone(s.setup));

/** One k6 iteration: the session it runs in, its VU and the scenario's name. */
export interface VuContext {
  s: Session;
  vu: K6Vu;
  /** The VU's iteration (`__ITER`, from 0). */
  iter: number;
  scenario: string;
  /** What it still waits for (timers, streams, `held` calls), as k6's event loop; `settle` ends the wait. */
  pending: number;
  /** What blocks its loop (`onLoop`): k6 calls in flight (`held`), callbacks that wait; events wait. */
  busy: number;
  settle: ((err?: unknown) => void) | null;
  /** A callback's throw: it interrupts the iteration, whose awaits then resume no more (`held`). */
  thrown?: unknown;
  /** The path of the k6 groups the iteration is in (`::api::inner`), its requests' `group` tag. */
  group?: string;
  /** Its number among its scenario's iterations in the whole run (k6/execution's); -1: not counted. */
  inTest: number;
  /** Events waiting for its loop to be free (`onLoop`). */
  queued?: Array<() => unknown>;
}

/** Why a script has nothing to run: no default (k6's invalid config, 104), no function at all (255). */
export const NO_DEFAULT = "no default function to run per iteration";
export const NO_FUNCTIONS = "no exported functions in script";

const storage = new AsyncLocalStorage<VuContext>();
setTagSource(current);
let scenarioName = "default";
/** When this isolate's first iteration started (epoch ms; 0 before it). */
let startedMs = 0;

/** The options k6 applies to every request, which the runtime honours (http.ts reads them). */
export const requestDefaults = {
  discardResponseBodies: false,
  maxRedirects: 10,
  /** The headers of k6's `userAgent` ("" sends none, as Go) and `noConnectionReuse` (Go's close), if set. */
  headers: undefined as Record<string, string> | undefined,
  /** Whether k6's request phases are kept: a summary, handleSummary or a threshold reads them. */
  phases: false,
  /** k6's `throw`: a request that gets no response throws its error. */
  throw: false,
  /** `http.batch`'s requests in flight at once, and to one host (k6's `batch` and `batchPerHost`). */
  batch: { parallel: 20, perHost: 6 },
  /** k6's `blockHostnames`, `blacklistIPs` and `hosts`: http.ts fails the requests they block. */
  blocked: {} as { blockHostnames?: string[]; blacklistIPs?: string[]; hosts?: Record<string, string> },
};

/** `noCookiesReset`: each VU's jar, carried to its next iteration (per isolate). */
const vuJars = new Map<number, CookieJar>();

/** The VU of the code running now, in a script whose awaits hand it back (none between iterations). */
let resumed: VuContext | undefined;

/** The running iteration's context, or undefined outside a session (init, setup, teardown). */
export function current(): VuContext | undefined {
  return resumed ?? storage.getStore();
}

/** The VU of the code running now, as a converted await takes it before it waits. */
export function context(): VuContext | undefined {
  return resumed;
}

/** Makes `ctx` the current VU again as its function resumes (`__k6.back(ctx, await x)`); returns `value`. */
export function back<T>(ctx: VuContext | undefined, value?: T): T | undefined {
  resumed = ctx;
  return value;
}

/** Functions the script wrote `async` that k6 refuses where it runs them (group() bodies: k6.ts). */
export const asyncWritten = new WeakSet<object>();
export const writtenAsync = <T extends object>(fn: T): T => (asyncWritten.add(fn), fn);

/** Globals k6's JavaScript lacks, as the script sets them (`globalThis.TextEncoder = ...`: convert.ts). */
export const shims: Record<string, unknown> = Object.create(null);

/** A read of a global k6's JavaScript lacks (convert.ts): the script's own, else k6's error. */
export function absent(name: string): unknown {
  if (name in shims) return shims[name];
  throw new ReferenceError(`${name} is not defined`);
}

/** `typeof __ITER`: k6 defines `__ITER` for iterations, not in the init code. */
export const iterType = (): string => current() === undefined && inInit() ? "undefined" : "number";

/** The folder `open()` reads relative paths from: the k6 script's own (set by the converted header). */
export const scriptDir = setScriptFolder;

Object.defineProperties(globalThis, {
  __VU: { get: () => current()?.vu.id ?? 0, configurable: true },
  // As k6's: no `__ITER` in the init code.
  __ITER: { get: () => current()?.iter ?? (inInit() ? absent("__ITER") : 0), configurable: true },
  __ENV: { value: isolateFlags.env ?? scriptEnv(), configurable: true, writable: true },
  open: { value: open, configurable: true, writable: true },
  require: { value: requireUnconverted, configurable: true, writable: true },
});

if (isolateFlags.compatibilityMode === "base") delete (globalThis as { global?: unknown }).global;

// `--console-output FILE`: console lines appended to it as k6's log lines (debug dropped, below k6's level).
const LEVELS = { log: "info", info: "info", warn: "warning", error: "error", debug: "" };
const out = isolateFlags.consoleOutput,
  logFile = out ? Deno.openSync(out, { append: true, create: true }) : null;
// k6's console has these five methods only: a script's console.table (group, time...) throws, as under k6.
const isolate = "WorkerGlobalScope" in globalThis || !isMainThread; // a VU's, or setup()'s (a Node worker)
const notK6 = isolate ? Object.keys(console).filter((m) => !(m in LEVELS)) : [];
for (const m of notK6) delete console[m as keyof Console];
for (const [m, level] of Object.entries(logFile ? LEVELS : {})) {
  Object.assign(console, { [m]: (...args: unknown[]) => level && logFile!.writeSync(logLine(level, args)) });
}

/** k6's log line (logrus's text) of a console call: objects as JSON, the message quoted when it must be. */
function logLine(level: string, args: unknown[]): Uint8Array {
  const msg = args.map((v) => typeof v === "object" ? JSON.stringify(v) : String(v)).join(" ");
  const time = new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    quoted = /^[\w.\-/@^+]*$/.test(msg) ? msg : JSON.stringify(msg);
  return new TextEncoder().encode(`time="${time}" level=${level} msg=${quoted}\n`);
}

/** A k6 function an iteration runs (the default, or a scenario's `exec`), each by its scenario's name. */
type Main = (data: unknown) => unknown;
type Mains = Map<string, Main>;

/** What the converted footer hands over: the exports, and whether its awaits hand the VU back. */
interface ConvertedModule {
  main: Main | undefined;
  exports: Record<string, unknown>;
  resumes?: boolean;
  /** False when the script does not import k6/metrics (its iterations add to no custom metric). */
  metrics?: boolean;
  /** True when requests may be in flight at once: sent by callbacks k6's event loop runs, or not awaited. */
  sendsLater?: boolean;
  /** The script's own URL when its init code reads `__VU`: each VU runs its own instance (`vuModule`). */
  url?: string;
}

/** Each VU's instance of a script whose init code reads `__VU`, as k6 runs init code once per VU. */
const vuModules = new Map<number, PromiseWithResolvers<ConvertedModule>>();
let loading = 0;

/** Local module `spec` as the importer's VU's instance: its URL with the importer's `?vu=N`. */
export const vuUrl = (spec: string, importer: string) =>
  new URL(spec, importer).href + new URL(importer).search;

/** The VU an instance of the script is loaded for (`?vu=N` on its URL); the first load's is 0, as k6's. */
export const initVu = (url: string): number => Number(new URL(url).searchParams.get("vu") ?? 0);

function vuModule(url: string, vu: number): Promise<ConvertedModule> {
  if (!vuModules.has(vu)) {
    vuModules.set(vu, Promise.withResolvers()), loading++, endInit(false);
    import(`${url}?vu=${vu}`).catch((err) => loaded(vu, err));
  }
  return vuModules.get(vu)!.promise;
}

/** As k6 initializes every VU before setup(): each planned VU's instance loads (an init error ends it). */
const INIT_VUS = Symbol.for("loadlab.k6InitVus");
async function initVus(url: string): Promise<void> {
  for (let vu = 1; vu <= (plannedVus() ?? 1); vu++) await vuModule(url, vu);
}

/** VU `vu`'s instance ran its init code (or threw); the init context ends with the last one loading. */
function loaded(vu: number, mod: ConvertedModule | Error): void {
  if (mod instanceof Error) mod.message = `VU ${vu}'s init: ${mod.message}`, vuModules.get(vu)!.reject(mod);
  else vuModules.get(vu)!.resolve(mod);
  if (--loading === 0) endInit();
}

/** The session function: the default, or the `exec` of this isolate's scenario (`LOADLAB_PART`), per VU. */
export function session(mod: ConvertedModule): (s: Session) => unknown {
  const vuOwn = mod.url === undefined ? 0 : initVu(mod.url);
  if (vuOwn > 0) return loaded(vuOwn, mod), () => undefined;
  // The footer runs as the module's top level ends: k6's init context is over (no metric, no open()).
  endInit();
  const own = (mod.exports.options ?? {}) as Record<string, unknown>;
  // The options as the run applies them (a `--config` file's under the script's, k6's flags over both), and
  // the scenarios a `--config` file gives a script that declares none (the shortcuts' `default` is no one's).
  const applied = (isolateFlags.options ?? own) as Record<string, unknown>;
  const given = isolateFlags.options?.scenarios;
  const fromConfig = own.scenarios === undefined && given !== undefined &&
    Object.keys(given).join() !== "default";
  const options: Record<string, any> = { ...applied, scenarios: fromConfig ? given : own.scenarios };
  // Every scenario's function is looked up now: a missing one is refused when the script is checked.
  const mains = mainsOf(mod, options);
  requestDefaults.discardResponseBodies = options.discardResponseBodies === true;
  if (typeof options.maxRedirects === "number") requestDefaults.maxRedirects = options.maxRedirects;
  const agent = typeof options.userAgent === "string" ? { "User-Agent": options.userAgent } : undefined;
  const close = options.noConnectionReuse === true ? { Connection: "close" } : undefined;
  if (agent || close) requestDefaults.headers = { ...agent, ...close };
  requestDefaults.phases = isolateFlags.phases === true || typeof mod.exports.handleSummary === "function" ||
    Object.keys(options.thresholds ?? {}).some((key) => /^\s*http_req_(?!failed|duration\s*$)/.test(key));
  requestDefaults.throw = options.throw === true;
  requestDefaults.blocked = options;
  sendsLater = mod.sendsLater === true;
  // Checked with the options (scenarios/k6/options.ts): a number of ms or a duration's text.
  const minIteration = options.minIterationDuration ?? 0;
  minIterationMs = typeof minIteration === "number" ? minIteration : durationMsOf(String(minIteration)) ?? 0;
  setSystemTags(options.systemTags);
  setJsonThresholds(options.thresholds);
  writeVusPoints(() => [activeVus(), plannedVus(true) ?? countOf(VUS_SLOT)], givenRunTags(options));
  // k6's 0 is "no limit": a batch then sends all its requests at once.
  if (typeof options.batch === "number") requestDefaults.batch.parallel = options.batch || Infinity;
  if (typeof options.batchPerHost === "number") {
    requestDefaults.batch.perHost = options.batchPerHost || Infinity;
  }
  let fn: Main | null = null;
  // The `s` is the runtime's alone (k6 code sees `http`, never it): not sealed, which costs each iteration.
  return Object.assign((s: Session) => {
    // As k6, nothing starts after an abort: the iteration waits for the run's stop (it ends the sleep).
    if (testAborted()) return s.sleep(ABORTED_WAIT_MS);
    fn ??= chooseScenario(options, mains, s.env[PART_ENV]);
    if (options.noCookiesReset === true) vuJars.set(s.vu, jarOf(s, vuJars.get(s.vu)));
    const inTest = counting ? countUp(scenarioSlot) : -1;
    const vu = vuOf(s);
    const ctx: VuContext = {
      s,
      vu,
      iter: vu.iterations++,
      scenario: scenarioName,
      pending: 0,
      busy: 0,
      settle: null,
      inTest,
    };
    const own = mod.url === undefined ? undefined : vuModule(mod.url, vu.id), name = scenarioName;
    const main = own ? (data: unknown) => own.then((m) => mainsOf(m, options).get(name)!(data)) : fn;
    if (mod.resumes !== true) return storage.run(ctx, iterate, ctx, main);
    // The iteration's code up to its first await runs now, with its VU current; its awaits hand it back.
    resumed = ctx;
    try {
      // No timers (they keep the context above) and, without k6/metrics or counts, nothing after it.
      const bare = mod.metrics === false && !pointsOut && !counting && !arrivals && !requestDefaults.phases &&
        minIterationMs === 0 && countTaggedIteration === null;
      return bare ? fn(dataOf(vu, s)) : iterate(ctx, fn);
    } finally {
      resumed = undefined;
    }
  }, { [Symbol.for("loadlab.runtimeHeld")]: true, ...mod.url && { [INIT_VUS]: () => initVus(mod.url!) } });
}

/** How long an iteration started after an abort waits for the run's stop (it waits again if need be). */
const ABORTED_WAIT_MS = 60_000;

/** k6's `minIterationDuration` (ms): a VU pauses after a shorter iteration for the rest of it (0: none). */
let minIterationMs = 0;

/** One iteration: the function, what it left pending, the rest of `minIterationMs`; its metrics sent soon. */
async function iterate(ctx: VuContext, main: Main): Promise<unknown> {
  const startMs = pointsOut || minIterationMs > 0 ? performance.now() : 0;
  if (counting || pointsOut) activate(ctx.vu);
  if (pointsOut) iterationStarts();
  const whole = async () => {
    const own = main(dataOf(ctx.vu, ctx.s));
    const out = own instanceof Promise ? await interruptible(ctx, own) : own;
    ctx.settle = null;
    if (ctx.pending > 0) await settled(ctx);
    if (ctx.thrown !== undefined) throw ctx.thrown;
    return out;
  };
  try {
    // Requests sent later may be in flight together: as a batch's, on the VU's connections.
    return await (sendsLater ? ctx.s.batch(whole, requestDefaults.batch) : whole());
  } catch (err) {
    // As k6 cancels a thrown iteration's context: what it sent beside ends uncounted, resumes nothing.
    ctx.thrown ??= err;
    if (sendsLater) (ctx.s as ScriptSession).cutSides();
    throw err;
  } finally {
    flushMetricsSoon();
    // As k6's, an iteration the run's end or a ramp-down cuts is interrupted; one that threw completed.
    if (counting) countUp(ctx.s.ended.aborted ? CUT_SLOT : ENDED_SLOT);
    if (!ctx.s.ended.aborted) countTaggedIteration?.(ctx);
    if (arrivals) idleVus.push(ctx.vu);
    const ownMs = performance.now() - startMs;
    if (pointsOut) iterationPoints(ownMs, ctx);
    if (minIterationMs > 0) addGroupDuration(ownMs);
    if (minIterationMs > ownMs && !ctx.s.ended.aborted) await ctx.s.sleep(minIterationMs - ownMs);
    if (counting || pointsOut) deactivate(ctx.vu);
  }
}

/** `own` settled, or rejected first by a callback's throw (`releaseHold`): k6 interrupts the iteration. */
const interruptible = (ctx: VuContext, own: Promise<unknown>) =>
  new Promise((resolve, fail) => (ctx.settle = (e) => e === undefined || fail(e), own.then(resolve, fail)));

/** The run's active VUs (one 32-bit slot past the scenarios' pairs), and those of this isolate. */
const ACTIVE_SLOT = 255;
const activeHere = new Set<K6Vu>();
/** How long a closed load's VU stays active past its iteration: it starts its next one within it. */
const IDLE_ACTIVE_MS = 100;
// The isolate's load ended: its VUs are no more (its worker ends before their idle timers fire).
atRunEnd(() => activeHere.forEach(idle));

function activate(vu: K6Vu): void {
  clearTimeout(vu.idle);
  if (!activeHere.has(vu)) activeHere.add(vu), Atomics.add(runCounters, ACTIVE_SLOT, 1);
}

function idle(vu: K6Vu): void {
  if (activeHere.delete(vu)) Atomics.sub(runCounters, ACTIVE_SLOT, 1);
}

/** As k6: an arrival rate's VU is active only in its iteration, another VU until it runs no more. */
function deactivate(vu: K6Vu): void {
  if (arrivals) return idle(vu);
  Deno.unrefTimer(vu.idle = setTimeout(idle, IDLE_ACTIVE_MS, vu));
}

/** k6's `rps`: the run's requests a second at most, every worker's together (0: no limit). */
const RPS = Math.max(0, Number(isolateFlags.options?.rps) || 0);
/** When the run's next request may go, in 10 µs units since the test's start. */
const RPS_SLOT = 254;

/** How long a request waits for its turn under k6's `rps` (its turn taken now): 1/rps after the last's. */
export function rpsWaitMs(): number {
  if (RPS === 0) return 0;
  const start = isolateFlags.testStartMs ?? performance.timeOrigin;
  const now = Math.floor((performance.timeOrigin + performance.now() - start) * 100);
  for (;;) {
    const next = Atomics.load(runCounters, RPS_SLOT), at = Math.max(next, now);
    if (Atomics.compareExchange(runCounters, RPS_SLOT, next, at + 100_000 / RPS) === next) {
      return (at - now) / 100;
    }
  }
}

/** The run's VUs active now (k6's `exec.instance.vusActive`). */
export const activeVus = (): number => Atomics.load(runCounters, ACTIVE_SLOT);

/** Whether the script's callbacks send requests later, beside the iteration's own (the footer says). */
let sendsLater = false;

/** Whether the script imports k6/execution: only then is each iteration counted (run_state.ts). */
let counting = false;
/** The slot pair of the run's iterations that ended (returned or threw, as k6's `iterationsCompleted`). */
const ENDED_SLOT = 0;
/** The slot pair of the run's iterations cut (k6's `iterationsInterrupted`), below points_out.ts's slots. */
const CUT_SLOT = 250;
/** The slot pair of the run's VUs made so far: each VU's id is the next. */
const VUS_SLOT = 2;
/** The slot pair of this isolate's scenario's iterations started: 4 + 2 x its index among the scenarios. */
let scenarioSlot = 4;

/** An arrival rate: each iteration takes an idle VU of the isolate (else a new one), as k6 reuses VUs. */
let arrivals = false;
const idleVus: K6Vu[] = [];
const VU = Symbol("k6 VU");

/** The session's k6 VU: a closed load's user keeps its own; an arrival takes an idle one, else a new one. */
function vuOf(s: Session): K6Vu {
  const state = s.state as Record<symbol, K6Vu | undefined>;
  return state[VU] ??= (arrivals ? idleVus.pop() : undefined) ?? { id: countUp(VUS_SLOT) + 1, iterations: 0 };
}

/** Counts every iteration across the run from now on (k6/execution's import). */
export const countIterations = (): void => void (counting = true);

/** Adds 1 to the 64-bit count at `slot` (low word) and `slot + 1` (high); returns the count before. */
function countUp(slot: number): number {
  const counters = runCounters;
  const low = Atomics.add(counters, slot, 1);
  // The add that wraps the low word carries into the high one.
  const high = low === 0xffff_ffff ? Atomics.add(counters, slot + 1, 1) : Atomics.load(counters, slot + 1);
  return high * 2 ** 32 + low;
}

const countOf = (slot: number) =>
  Atomics.load(runCounters, slot + 1) * 2 ** 32 + Atomics.load(runCounters, slot);

/** The run's iterations that ended so far (k6's `exec.instance.iterationsCompleted`). */
export const iterationsEnded = (): number => countOf(ENDED_SLOT);
/** The run's iterations cut so far (k6's `exec.instance.iterationsInterrupted`). */
export const iterationsCut = (): number => countOf(CUT_SLOT);

/**
 * The VUs k6 initializes before the test, summed over scenarios (null when they start apart); `made` adds
 * those arrival rates made since (k6's `vus_max`), else null when an arrival rate may make more.
 */
export function plannedVus(made = false): number | null {
  let vus = 0, grows = false;
  for (const sc of Object.values(isolateFlags.options?.scenarios ?? {}) as Array<Record<string, unknown>>) {
    const arrival = /-arrival-rate$/.test(String(sc.executor));
    const targets = ((sc.stages ?? []) as Array<{ target?: number }>).map((s) => Number(s.target));
    const most = arrival
      ? Number(sc.preAllocatedVUs)
      : sc.executor === "ramping-vus"
      ? Math.max(Number(sc.startVUs ?? 1), ...targets)
      : Number((sc.executor === "externally-controlled" ? sc.maxVUs : sc.vus) ?? 1);
    const apart = (sc.startTime ?? "0s") !== "0s" && sc.startTime !== 0;
    if (apart || !Number.isFinite(most)) return null;
    grows ||= arrival && Number(sc.maxVUs ?? most) > most, vus += most;
  }
  return !grows ? vus || null : made ? Math.max(vus, countOf(VUS_SLOT)) : null;
}

/** This isolate's scenario (`part`, else the declared one, else `default`), with its name, tags and `env`. */
function chooseScenario(options: Record<string, unknown>, mains: Mains, part: string | undefined): Main {
  // A load k6's flags give replaces the scenarios: the default function, with no scenario's tags or env.
  const own = isolateFlags.flagsLoad ? { ...options, scenarios: undefined } : options;
  const scenarios = (own.scenarios ?? {}) as Record<string, { env?: Record<string, unknown>; tags?: object }>;
  const names = Object.keys(scenarios);
  const name = part !== undefined && mains.has(part) ? part : names.length === 1 ? names[0] : "default";
  const fn = mains.get(name);
  if (fn === undefined) throw new ScriptShapeError(NO_DEFAULT);
  scenarioName = name;
  startedMs = Date.now();
  // A run has at most 64 workers, so at most 64 scenarios: their slots fit the run's counters.
  scenarioSlot = 4 + 2 * Math.max(0, names.indexOf(name));
  arrivals = /-arrival-rate$/.test(String((scenarios[name] as { executor?: unknown } | undefined)?.executor));
  // Every request's tags: `options.tags`, `--tag`, the scenario's `tags` and its name if declared.
  const tags = givenRunTags(own), declared = own.scenarios !== undefined;
  setRunTags(declared ? { ...tags, ...scenarios[name]?.tags, scenario: name } : tags, name);
  wantSubmetrics(options.thresholds);
  // As k6 activates a VU: a fresh __ENV (init code's writes gone), the scenario's `env` over the process's.
  const env = { ...isolateFlags.env ?? scriptEnv() };
  for (const [key, value] of Object.entries(scenarios[name]?.env ?? {})) env[key] = String(value);
  (globalThis as { __ENV?: unknown }).__ENV = env;
  return fn;
}

// As k6's event loop: a promise rejected with no handler ends its iteration, as a callback's throw does
// (counted once, as the iteration's error).
globalThis.addEventListener("unhandledrejection", (e) => {
  const ctx = current();
  if (ctx === undefined) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  ctx.thrown ??= e.reason;
  ctx.settle?.(e.reason);
});

/** One of `ctx`'s holds (a timer, a stream, a call) is done; its throw `err` ends the iteration. */
export function releaseHold(ctx: VuContext, err?: unknown): void {
  ctx.pending--;
  if (err !== undefined) ctx.thrown ??= err, ctx.settle?.(err);
  // A reaction to what settled runs first, and may send again.
  else if (ctx.pending === 0) setTimeout(() => ctx.pending === 0 && ctx.settle?.(), 0);
}

/**
 * Runs `event` on `ctx`'s loop now, or after the events before it once nothing blocks it: as in k6, a call
 * that sleeps or sends (`held`), or an event's pending promise (it must not reject), blocks its VU's loop.
 */
export function onLoop(ctx: VuContext | undefined, event: () => unknown): void {
  if (ctx === undefined) return void event();
  if (ctx.busy > 0 || ctx.queued?.length) (ctx.queued ??= []).push(event);
  else run(ctx, event);
}

/** Runs `event`, its events queued meanwhile after it (and after what it awaits). */
function run(ctx: VuContext, event: () => unknown): void {
  ctx.busy++;
  const out = storage.run(ctx, event);
  if (out instanceof Promise) out.then(() => free(ctx));
  else free(ctx);
}

/** One block of `ctx`'s loop ended; with none left, its events run after the blocked code's continuation. */
function free(ctx: VuContext): void {
  if (--ctx.busy === 0 && ctx.queued?.length) setTimeout(drain, 0, ctx);
}

function drain(ctx: VuContext): void {
  while (ctx.busy === 0 && ctx.queued?.length) run(ctx, ctx.queued.shift()!);
}

/** Holds the running iteration until `call` settles (awaited, it `blocks` the VU's loop as k6's call). */
export function held<T>(call: T, blocks = true): T {
  const ctx = current();
  if (ctx === undefined || !(call instanceof Promise)) return call;
  ctx.pending++, ctx.busy += Number(blocks);
  const done = () => (blocks && free(ctx), releaseHold(ctx));
  // An interrupted iteration's code resumes no more, as k6 stops the VU's loop: it sends and counts nothing.
  return call.then(
    (v) => (done(), ctx.thrown === undefined ? v : NEVER),
    (e) => (done(), ctx.thrown === undefined ? Promise.reject(e) : NEVER),
  ) as T;
}

const NEVER = new Promise<never>(() => {});

/** A k6 call's promise the script chains on, settled on the VU's loop as k6's; it holds the iteration. */
export function chained<T>(call: Promise<T>): Promise<T> {
  const ctx = current();
  if (ctx === undefined) return call;
  ctx.pending++;
  return new Promise((resolve, reject) => {
    // Neither settles once the iteration is interrupted (`held`).
    const settle = (end: () => void) =>
      onLoop(ctx, () => (ctx.thrown === undefined && end(), releaseHold(ctx)));
    call.then((v) => settle(() => resolve(v)), (err) => settle(() => reject(err)));
  });
}

/** Waits for what the iteration left pending; a callback's throw is the iteration's; the run's end too. */
function settled(ctx: VuContext): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ended = ctx.s.ended;
    const stop = () => resolve();
    ended.addEventListener("abort", stop, { once: true });
    ctx.settle = (err) => {
      ended.removeEventListener("abort", stop);
      ctx.settle = null;
      err === undefined ? resolve() : reject(err);
    };
  });
}

/** Each scenario's function (its `exec`, else the default), and the default's as `default`. */
function mainsOf(mod: ConvertedModule, options: { scenarios?: Record<string, { exec?: string } | null> }) {
  const mains: Mains = new Map();
  // k6 runs only exported functions: a default export of data is none, a script exporting none fails to load.
  const main = typeof mod.main === "function" ? mod.main : undefined;
  if (main === undefined && !Object.values(mod.exports).some((v) => typeof v === "function")) {
    throw new ScriptShapeError(`${NO_FUNCTIONS}: write export default function () { ... }`);
  }
  if (main !== undefined) mains.set("default", main);
  for (const [name, scenario] of Object.entries(options.scenarios ?? {})) {
    // The options' own check names a scenario that is not an object; here it only must not crash.
    const exec = scenario?.exec;
    // The script's own exports only: `exec: "toString"` must not find Object.prototype's.
    const fn = exec === undefined ? main : Object.hasOwn(mod.exports, exec) ? mod.exports[exec] : undefined;
    if (typeof fn !== "function") {
      throw new TypeError(
        exec === undefined
          ? `options.scenarios.${name}: no exec and no default function; export default function () { ... } ` +
            'or give the scenario exec: "an exported function"'
          : `options.scenarios.${name}.exec: no exported function ${exec}`,
      );
    }
    mains.set(name, fn as Main);
  }
  if (mains.size === 0) {
    throw new ScriptShapeError(
      `${NO_DEFAULT}: export default function () { ... }, or scenarios naming theirs with exec`,
    );
  }
  return mains;
}

/** `xs.method(callback, ...)` with an async callback, one element after another (array_calls.ts). */
export function array(
  method: string,
  xs: unknown,
  callback: (...args: any[]) => unknown,
  ...rest: unknown[]
): Promise<unknown> {
  // Each callback starts with the caller's VU current (the one before it resumed elsewhere).
  const ctx = resumed;
  return runArrayCall(method, xs, callback, rest, (value) => back(ctx, value));
}

/** The scenario the iterations run (its `options.scenarios` key, or `default`). */
export const scenario = (): string => scenarioName;

export const scenarioStartMs = (): number => startedMs;
