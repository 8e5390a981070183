/**
 * @module
 * k6's `k6/timers`. As in k6's event loop, an iteration ends only once its timers fired or were cleared, and
 * a callback's throw ends it as the script's error. Outside an iteration they are the platform's timers.
 */
import { current, releaseHold, type VuContext } from "./runtime.ts";

type Callback = (...args: unknown[]) => unknown;
type Timer = ReturnType<typeof globalThis.setTimeout>;

const held = new Map<Timer, VuContext>();
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

/** Runs `fn`; its throw (an async one's rejection too) ends the iteration holding `timer`, and its timers. */
function call(fn: Callback, args: unknown[], timer: Timer, ctx: VuContext | undefined): boolean {
  try {
    const out = fn(...args);
    // An async callback holds the iteration until it settles.
    if (out instanceof Promise && ctx !== undefined) {
      ctx.pending++;
      out.then(() => releaseHold(ctx), (err) => (clearAll(ctx), releaseHold(ctx, err)));
    }
    return true;
  } catch (err) {
    if (ctx === undefined) throw err;
    clearAll(ctx, timer);
    globalThis.clearTimeout(timer);
    release(timer, err);
    return false;
  }
}

function clearAll(ctx: VuContext, except?: Timer): void {
  for (const [t, c] of held) if (c === ctx && t !== except) globalThis.clearTimeout(t), release(t);
}

/** Runs `fire` once no k6 call blocks the VU (one callback at a time, as k6's), if `timer` still holds. */
function whenFree(ctx: VuContext | undefined, timer: Timer, fire: () => void): void {
  if (ctx !== undefined && !held.has(timer)) return;
  if (ctx === undefined || ctx.blocking === 0) fire();
  else globalThis.setTimeout(() => whenFree(ctx, timer, fire), 1);
}

export function setTimeout(fn: Callback, delayMs = 0, ...args: unknown[]): Timer {
  const ctx = current();
  const timer: Timer = globalThis.setTimeout(() =>
    whenFree(ctx, timer, () => {
      if (call(fn, args, timer, ctx)) release(timer);
    }), Number(delayMs) || 0);
  if (ctx !== undefined) hold(timer, ctx);
  return timer;
}

export function setInterval(fn: Callback, delayMs = 0, ...args: unknown[]): Timer {
  const ctx = current();
  let due = false;
  const timer: Timer = globalThis.setInterval(() => {
    if (!due) due = true, whenFree(ctx, timer, () => (due = false, call(fn, args, timer, ctx)));
  }, Number(delayMs) || 0);
  if (ctx !== undefined) hold(timer, ctx);
  return timer;
}

export function clearTimeout(timer: Timer): void {
  globalThis.clearTimeout(timer);
  release(timer);
}

export function clearInterval(timer: Timer): void {
  globalThis.clearInterval(timer);
  release(timer);
}

export default { setTimeout, clearTimeout, setInterval, clearInterval };
