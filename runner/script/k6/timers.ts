/**
 * @module
 * k6's `k6/timers`: as in k6's event loop, an iteration ends once its timers fired or were cleared, and a
 * callback runs on the VU's loop (runtime.ts `onLoop`). Outside an iteration they are the platform's.
 */
import { current, onLoop, releaseHold, type VuContext } from "./runtime.ts";

type Callback = (...args: unknown[]) => unknown;
type Timer = ReturnType<typeof globalThis.setTimeout>;

const held = new Map<Timer, VuContext>();
/** Timers whose callback waits on its VU's loop. */
const due = new Set<Timer>();
/** Iterations whose timers the run's end clears. */
const watched = new WeakSet<VuContext>();

function release(timer: Timer, err?: unknown): void {
  const ctx = held.get(timer);
  if (ctx === undefined) return;
  held.delete(timer);
  releaseHold(ctx, err);
}

/** Holds `ctx`'s iteration until `timer` is done; the run's end clears every timer of the iteration. */
function hold(timer: Timer, ctx: VuContext): void {
  held.set(timer, ctx);
  ctx.pending++;
  if (watched.has(ctx)) return;
  watched.add(ctx);
  ctx.s.ended.addEventListener("abort", () => clearAll(ctx), { once: true });
}

/** Runs `fn` on `ctx`'s loop unless `timer` was cleared; frees a `once` timer; a throw ends the iteration. */
function call(fn: Callback, args: unknown[], timer: Timer, ctx: VuContext | undefined, once: boolean): void {
  if (ctx === undefined) return void fn(...args);
  if (due.has(timer)) return;
  const fail = (err: unknown) => {
    clearAll(ctx, timer);
    globalThis.clearTimeout(timer);
    release(timer, err);
  };
  const done = () => once && release(timer);
  due.add(timer);
  onLoop(ctx, () => {
    due.delete(timer);
    if (!held.has(timer)) return;
    // An iteration that threw runs no timer of its, as k6 cancels its context: they are cleared.
    if (ctx.thrown !== undefined) return fail(ctx.thrown);
    try {
      const out = fn(...args);
      if (out instanceof Promise) return out.then(done, fail);
      done();
    } catch (err) {
      fail(err);
    }
  });
}

/** k6's `setTimeout` (`once`) or `setInterval`: the platform's, its callback on the VU's loop, held. */
function start(once: boolean) {
  return (fn: Callback, delayMs = 0, ...args: unknown[]): Timer => {
    const ctx = current(), platform = once ? globalThis.setTimeout : globalThis.setInterval;
    const timer: Timer = platform(() => call(fn, args, timer, ctx, once), Number(delayMs) || 0);
    if (ctx !== undefined) hold(timer, ctx);
    return timer;
  };
}

export const setTimeout = start(true), setInterval = start(false);

function clearAll(ctx: VuContext, except?: Timer): void {
  for (const [t, c] of held) if (c === ctx && t !== except) globalThis.clearTimeout(t), release(t);
}

/** Clears a timeout or an interval (the platform's clear either). */
export function clearTimeout(timer: Timer): void {
  globalThis.clearTimeout(timer);
  release(timer);
}

export const clearInterval = clearTimeout;

export default { setTimeout, clearTimeout, setInterval, clearInterval };
