/**
 * @module
 * Why a count ended short of its count (`endedBy`): its max duration passed (k6's `maxDuration`), or the
 * idle rule: every script session has waited on the script's own code past the request timeout, so
 * nothing would ever be sent again. Read by the worker's run timer.
 */
import { type AttackConfig, loadBoundMs, measuredDurationMs } from "../config.ts";
import type { LoadRunSummary } from "./load_run_types.ts";

interface IdleSessions {
  /** Every session in progress waits on the script's own code. */
  idle(): boolean;
}

/** A worker's count: whether and why it ended short. */
export class CountEnd {
  endedBy: LoadRunSummary["endedBy"];
  /** Since when every session has waited on its own code; null while one does not. */
  #idleSinceMs: number | null = null;
  readonly #unbounded: boolean;
  readonly #bounded: boolean;
  readonly #timeoutMs: number;

  constructor(config: AttackConfig, readonly sessions: IdleSessions | null) {
    const measuredMs = measuredDurationMs(config);
    this.#unbounded = !Number.isFinite(measuredMs);
    this.#bounded = loadBoundMs(config) < measuredMs;
    this.#timeoutMs = config.timeoutMs;
  }

  /** Whether the idle rule ends the count at `nowMs` (marks it so); called on each turn of the run timer. */
  idleAt(nowMs: number): boolean {
    if (this.sessions === null || !this.#unbounded || this.endedBy !== undefined) return false;
    if (!this.sessions.idle()) {
      this.#idleSinceMs = null;
      return false;
    }
    this.#idleSinceMs ??= nowMs;
    if (nowMs - this.#idleSinceMs <= this.#timeoutMs) return false;
    this.endedBy = "idle";
    return true;
  }

  /** At the load's end: its max duration, not its count nor a stop (`stopAtMs`), ended it at `endMs`. */
  ended(nowMs: number, endMs: number, stopAtMs: number): void {
    if (this.#bounded && stopAtMs === Infinity && nowMs >= endMs) this.endedBy ??= "maxDuration";
  }
}
