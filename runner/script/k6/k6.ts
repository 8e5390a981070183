/**
 * @module
 * k6's `k6` module for converted scripts: `check` counts as a loadlab check of the session, `sleep` is its
 * think time, `group` runs its body, `fail` throws. Outside a session (setup, teardown) checks count as k6's.
 */
import { asyncWritten, current } from "./runtime.ts";
import { jsonPointTags, tagValue } from "./tags.ts";
import { addCheck, addGroupDuration, flushMetrics } from "./metrics.ts";
import { point, pointsOut } from "./points_out.ts";
import { scriptText } from "../module.ts";
import { noteHookCheck } from "./http.ts";

export function check(
  value: unknown,
  sets: Record<string, unknown>,
  tags?: Record<string, string>,
): boolean | Promise<boolean> {
  const ctx = current();
  // In a group, counted under k6's path (`::api::status 200`): the summary's root_group nests it there.
  const prefix = ctx?.group === undefined ? "" : `${ctx.group}::`;
  for (const key in tags) tagValue(key, tags[key]);
  let all = true;
  const names = readSets(sets) as string[];
  for (let k = 0; k < names.length; k++) {
    const name = names[k];
    plainName(name);
    const condition = readSets(sets, name);
    // As k6's, a condition written async throws where it is reached, uncounted.
    if (asyncWritten.has(condition as object)) throw new Error(K6_CHECK_ASYNC);
    let ok = false, later: Promise<unknown> | undefined;
    try {
      const out = typeof condition === "function" ? condition(value) : condition;
      // A condition that sends requests (made async) is judged when it settles, the rest after it.
      if (out instanceof Promise) later = out;
      else ok = Boolean(out);
    } finally {
      // A condition that throws counts as failed, as k6 counts it, before its error ends the iteration.
      if (later === undefined) countCheck(prefix + name, name, ok, tags);
    }
    if (later !== undefined) {
      const others = Object.fromEntries(names.slice(k + 1).map((n) => [n, sets[n]])), before = all;
      return later.then(async (out) => {
        countCheck(prefix + name, name, Boolean(out), tags);
        return (await check(value, others, tags)) && before && Boolean(out);
      }, (err) => {
        countCheck(prefix + name, name, false, tags);
        throw err;
      });
    }
    all &&= ok;
  }
  return all;
}

const K6_CHECK_ASYNC = "the built-in check() does not support async functions as arguments. Use the " +
  "JavaScript utils library as a replacement. Refer to " +
  "https://grafana.com/docs/k6/latest/javascript-api/jslib/utils/check/ for more info";

function countCheck(path: string, name: string, ok: boolean, tags?: Record<string, string>): void {
  const s = current()?.s;
  if (s !== undefined) s.check(ok, path), addCheck(name, ok, tags);
  else noteHookCheck(path, ok);
  if (pointsOut && s !== undefined) point("checks", "rate", false, +ok, { ...jsonPointTags(), check: name });
}

/** check()'s condition `name` (none: the names); a bare value thrown made a TypeError naming the line. */
function readSets(sets: Record<string, unknown>, name?: string): unknown {
  try {
    return name === undefined ? Object.keys(sets) : sets[name];
  } catch (err) {
    if (err instanceof Error) throw err;
    throw new TypeError(
      "check()'s conditions cannot be read (reading them throws): give check() an object of name: condition, " +
        'e.g. { "status 200": (r) => r.status === 200 }',
    );
  }
}

/** k6 reserves `::` for its group paths: a group or check named with it throws as the call runs. */
function plainName(name: string): void {
  if (String(name).includes("::")) throw new Error("group and check names may not contain '::'");
}

/** Waits `seconds`; custom metrics go out first, so `abortOnFail` sees them while the VU sleeps. */
export function sleep(seconds: number): Promise<void> {
  flushMetrics();
  // What is not a number of seconds (NaN, Infinity, text) waits nothing, never fails the iteration.
  const asked = Number(seconds) * 1000;
  const ms = asked > 0 && asked < Infinity ? asked : 0;
  const s = current()?.s;
  return s ? s.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms));
}

const K6_GROUP = "please see https://grafana.com/docs/k6/latest/javascript-api/k6/group/ for more info";

/** k6's group: its requests carry the `group` tag (`::api::inner`); its duration goes to `group_duration`. */
export async function group<T>(name: string, body: () => T | Promise<T>): Promise<T> {
  plainName(name);
  if (asyncWritten.has(body)) {
    throw new Error(`group() does not support async functions as arguments, ${K6_GROUP}`);
  }
  const ctx = current();
  if (ctx === undefined) return await body();
  const outer = ctx.group;
  const path = ctx.group = `${outer ?? ""}::${name}`;
  const startMs = performance.now();
  try {
    return await body();
  } finally {
    addGroupDuration(performance.now() - startMs, path);
    ctx.group = outer;
  }
}

export function fail(message: unknown = ""): never {
  throw new Error(
    scriptText(message, "fail()'s message", 'give fail() a string, e.g. fail("status was not 200")'),
  );
}

/** Each VU's seeded Math.random state (mulberry32), and that of the code outside any iteration. */
const seeded = new WeakMap<object, Int32Array>();
const OUTSIDE = {};
const nativeRandom = Math.random;

/** k6's `randomSeed` of the calling VU's Math.random (init code's: init code only); not Go's sequence. */
export function randomSeed(seed: number): void {
  const n = Math.trunc(Number(seed)) || 0;
  seeded.set(current()?.vu ?? OUTSIDE, new Int32Array([n ^ Math.trunc(n / 2 ** 32)]));
  Math.random = seededRandom;
}

function seededRandom(): number {
  const state = seeded.get(current()?.vu ?? OUTSIDE);
  if (state === undefined) return nativeRandom();
  let t = state[0] = (state[0] + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
}

export default { check, sleep, group, fail, randomSeed };
