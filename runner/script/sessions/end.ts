/**
 * @module
 * How a script session ends, apart from what it sends: its outcome (the script function's value or
 * error, or `CUT` once the run ended and nothing of loadlab's is in progress for it, whichever comes
 * first) and its think times (`s.sleep`, on the worker's one sleep queue: sleep_queue.ts), which end at
 * once when the run does. A request or sleep asked
 * for after the run ended never returns, so no script loop spins on them and a session waiting on its own
 * promise cannot hold the worker. A base class of the session (session.ts) rather than an object
 * beside it: thousands of sessions wait at once, so each costs its fields and no second object.
 */
import type { SessionRun } from "../../load/flow_session.ts";
import { sleepUnlessAborted } from "../../../system/sleep.ts";
import { type Sleeper, SleepQueue } from "./sleep_queue.ts";

/** The outcome of a session the run ended under (script code never sees it). */
export const CUT = Symbol("cut");
/** A request or sleep of a session the run ended: it never returns (the session is cut, not spun on). */
const NEVER = new Promise<never>(() => {});
/** The worker's think times, on one timer (each isolate has its own). */
const SLEEPS = new SleepQueue();

/**
 * A session's outcome, its cut and its sleeps; the session itself says whether a request is in flight and
 * what its end does (`concluded`). The outcome is no promise of its own: the script function's promise is
 * watched by its user's two handlers, and whichever of it and the cut comes first calls `concluded`, once.
 */
export abstract class SessionEnd implements Sleeper {
  // Private, behind accessors: a script that freezes its `s` cannot stop loadlab writing them.
  #pending = false;
  #liveAt = -1;
  readonly #run: SessionRun;
  /** The outcome came (the script's function settled, or the session was cut): later ones are not. */
  #settled = false;
  #sleeps = 0;
  /** The sleep in progress: its promise's resolve, and its number in the worker's sleep queue. */
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

  /** Its place in the worker's list of live sessions (live.ts), -1 when not in it. */
  get liveAt(): number {
    return this.#liveAt;
  }

  set liveAt(at: number) {
    this.#liveAt = at;
  }

  /** Whether a request of the session is in flight (its end cuts the session if the run ended). */
  protected abstract inFlight(): boolean;

  /** Waiting on the script's own code: no request of its in flight and no `s.sleep` (a count's idle rule). */
  waitingOnOwnCode(): boolean {
    return this.#sleeps === 0 && !this.inFlight();
  }

  /**
   * The session's outcome, once: the script function's value, its error (`failed`), or `CUT` once the
   * run ended and nothing of loadlab's is in progress for the session.
   */
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

  protected cut(): void {
    this.settle(CUT, false);
  }

  /** A request or sleep asked for after the run ended: the session is cut, and it never returns. */
  protected cutNow(): Promise<never> {
    this.cut();
    return NEVER;
  }

  /**
   * The script function's result (a promise or a value) ends the session, unless it was cut first.
   * `onValue` and `onError` settle it (`settle`): made once per virtual user, who runs one session at a
   * time, not per session. A thenable that is not a Promise (an object with a `then`) is awaited as
   * `await` would: ended at once, its sends went out after the session had ended.
   */
  endWith(body: unknown, onValue: (value: unknown) => void, onError: (err: unknown) => void): void {
    if (body instanceof Promise) return void body.then(onValue, onError);
    if ((typeof body !== "object" || body === null) && typeof body !== "function") {
      return this.settle(body, false);
    }
    Promise.resolve(body).then(onValue, onError);
  }

  /** The session's outcome came (see `concluded`); one after the first is not. */
  settle(outcome: unknown, failed: boolean): void {
    if (this.#settled) return;
    this.#settled = true;
    this.concluded(outcome, failed);
  }

  sleep(ms: number): Promise<void> {
    // A NaN one was due at NaN and never woke: a count load held until its max duration.
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

  /** The sleep queue's call: sleep number `sleep` is due (one woken early by the run's end wakes nothing). */
  wake(sleep: number): boolean {
    return sleep === this.#sleepNo && this.#wakeUp();
  }

  /** Ends the session's sleep, if it sleeps (it is due, or the run ended); whether it slept. */
  #wakeUp(): boolean {
    const wake = this.#wake;
    if (wake === null) return false;
    this.#wake = null;
    this.#sleeps--;
    wake();
    return true;
  }
}

/** Why `s.sleep(ms)` cannot wait `ms`: the value as the script wrote it, and what it must be. */
function badSleep(ms: unknown): string {
  const shown = typeof ms === "number"
    ? String(ms)
    : typeof ms === "string"
    ? JSON.stringify(ms.slice(0, 40))
    : typeof ms;
  return `s.sleep(${shown}): a think time is a finite number of milliseconds, 0 or more`;
}
