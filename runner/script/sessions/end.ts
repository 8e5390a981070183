/**
 * @module
 * How a script session ends: its function's value or error, or `CUT` once the run ended and nothing of
 * loadlab's is in progress for it; and its think times. A base class of the session: thousands wait at once.
 */
import type { SessionRun } from "../../load/flow_session.ts";
import { sleepUnlessAborted } from "../../../system/sleep.ts";
import { type Sleeper, SleepQueue } from "./sleep_queue.ts";

/** The outcome of a session the run ended under (script code never sees it). */
export const CUT = Symbol("cut");
/** A request or sleep of a session the run ended: it never returns (the session is cut, not spun on). */
const NEVER = new Promise<never>(() => {});
const SLEEPS = new SleepQueue();

/** A session's outcome, its cut and its sleeps: whichever of the function and the cut ends first, once. */
export abstract class SessionEnd implements Sleeper {
  // Private, behind accessors: a script that freezes its `s` cannot stop loadlab writing them.
  #pending = false;
  #liveAt = -1;
  readonly #run: SessionRun;
  #settled = false;
  #sleeps = 0;
  #wake: (() => void) | null = null;
  #sleepNo = 0;

  constructor(run: SessionRun) {
    this.#run = run;
  }

  /** Cut at the end of the graceful stop while waiting on the script's own promise. */
  get pending(): boolean {
    return this.#pending;
  }

  set pending(cut: boolean) {
    this.#pending = cut;
  }

  get liveAt(): number {
    return this.#liveAt;
  }

  set liveAt(at: number) {
    this.#liveAt = at;
  }

  protected abstract inFlight(): boolean;

  /** Waiting on the script's own code: no request of its in flight and no `s.sleep` (a count's idle rule). */
  waitingOnOwnCode(): boolean {
    return this.#sleeps === 0 && !this.inFlight();
  }

  /** The session's outcome, once: the function's value, its error (`failed`), or `CUT`. */
  protected abstract concluded(outcome: unknown, failed: boolean): void;

  /** The run ended: cut the session now, unless a request of its is in flight (its end cuts it). */
  runEnded(): void {
    const run = this.#run;
    if (!run.ended.aborted) return;
    if (!this.inFlight()) {
      this.pending = this.#sleeps === 0 && run.shared.stopping;
      this.cut();
    }
    // A think time ends at once when the run stops (its entry in the queue is left to go stale).
    if (this.#wakeUp()) SLEEPS.forget();
  }

  runStopping(): void {
    if (this.#wakeUp()) SLEEPS.forget();
  }

  protected cut(): void {
    this.settle(CUT, false);
  }

  protected cutNow(): Promise<never> {
    this.cut();
    return NEVER;
  }

  /**
   * The script function's result ends the session, unless it was cut first; `onValue` and `onError` are
   * made once per virtual user. A non-Promise thenable is awaited as `await` would.
   */
  endWith(body: unknown, onValue: (value: unknown) => void, onError: (err: unknown) => void): void {
    if (body instanceof Promise) return void body.then(onValue, onError);
    if ((typeof body !== "object" || body === null) && typeof body !== "function") {
      return this.settle(body, false);
    }
    Promise.resolve(body).then(onValue, onError);
  }

  settle(outcome: unknown, failed: boolean): void {
    if (this.#settled) return;
    this.#settled = true;
    this.concluded(outcome, failed);
  }

  sleep(ms: number): Promise<void> {
    // A NaN one would be due at NaN and never wake.
    if (!(typeof ms === "number" && ms >= 0 && ms < Infinity)) throw new TypeError(badSleep(ms));
    const ended = this.#run.ended;
    if (ended.aborted) return this.cutNow();
    this.#sleeps++;
    // Sleeps at once (not awaited) are rare: each but the first listens to the run's end itself.
    if (this.#wake !== null) return sleepUnlessAborted(ms, ended).then(() => void this.#sleeps--);
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
      SLEEPS.add(this, ++this.#sleepNo, performance.now() + Math.max(0, ms));
    });
  }

  wake(sleep: number): boolean {
    return sleep === this.#sleepNo && this.#wakeUp();
  }

  #wakeUp(): boolean {
    const wake = this.#wake;
    if (wake === null) return false;
    this.#wake = null;
    this.#sleeps--;
    wake();
    return true;
  }
}

function badSleep(ms: unknown): string {
  const shown = typeof ms === "number"
    ? String(ms)
    : typeof ms === "string"
    ? JSON.stringify(ms.slice(0, 40))
    : typeof ms;
  return `s.sleep(${shown}): a think time is a finite number of milliseconds, 0 or more`;
}
