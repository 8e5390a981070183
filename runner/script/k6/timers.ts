/**
 * @module
 * k6's `k6/timers`. As in k6's event loop, an iteration ends only once its timers fired or were cleared, a
 * callback runs on the VU's loop (after a socket's listener that sleeps; one that sleeps holds the VU too),
 * and its throw ends the iteration as the script's error. Outside an iteration they are the platform's.
 */
import { current, onLoop, releaseHold, type VuContext } from "./runtime.ts";

type Callback = (...args: unknown[]) => unknown;
type Timer = ReturnType<typeof globalThis.setTimeout>;

const held = new Map<Timer, VuContext>();

function release(timer: Timer, err?: unknown): void {
  const ctx = held.get(timer);
  if (ctx === undefined) return;
  held.delete(timer);
  releaseHold(ctx, err);
}

/** Holds `ctx`'s iteration until `timer` is done; the run's end clears every timer of the iteration. */
function hold(timer: Timer, ctx: VuContext): void {
  held.set(timer, ctx);
  if (ctx.timers++ > 0) return;
  ctx.s.ended.addEventListener("abort", () => {
    for (const [t, c] of held) if (c === ctx) globalThis.clearTimeout(t), release(t);
  }, { once: true });
}

/**
 * Runs `fn` on `ctx`'s loop unless `timer` was cleared meanwhile, then releases a timeout (`once`); its throw
 * (or its promise's rejection) ends the iteration holding `timer`, and every timer of it.
 */
function call(fn: Callback, args: unknown[], timer: Timer, ctx: VuContext | undefined, once: boolean): void {
  if (ctx === undefined) return void fn(...args);
  const fail = (err: unknown) => {
    for (const [t, c] of held) if (c === ctx && t !== timer) globalThis.clearTimeout(t), release(t);
    globalThis.clearTimeout(timer);
    release(timer, err);
  };
  const done = () => once && release(timer);
  onLoop(ctx, () => {
    if (!held.has(timer)) return;
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

/** Clears a timeout or an interval (the platform's clear either). */
export function clearTimeout(timer: Timer): void {
  globalThis.clearTimeout(timer);
  release(timer);
}

export const clearInterval = clearTimeout;

export default { setTimeout, clearTimeout, setInterval, clearInterval };
