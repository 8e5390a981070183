/**
 * @module
 * A worker's side of steering: changes in time order, versioned for the pacer; an ending one moves `endMs`.
 */
import type { Phase } from "../config_fields.ts";
import type { SteerChange } from "../../results/schema/steering.ts";
import { type ScheduleChange, steeredDurationMs, steeredPhases } from "./steer_schedule.ts";
import { waitUntil } from "./clock.ts";
import { within } from "../../system/sleep.ts";
import { withWarmup } from "./schedule.ts";
import { modelFactsOf } from "../../results/load_models.ts";

/** What steering reads of a load's config (the rate model's phases, a fixed rate). */
interface SteeredConfig {
  readonly model: string;
  readonly warmupMs: number;
  readonly phases?: readonly Phase[];
  readonly ratePerSec?: number;
}

const DONE: Promise<void> = Promise.resolve();

/** A wait longer than this races the next change; shorter ones just wait (no promise per send). */
const RACE_ABOVE_MS = 5;

/** One worker's steering state. Times are this isolate's `performance.now()` ms. */
export class WorkerSteering {
  /** The planned phases, warm-up included: the rate model's own, one phase for the others. */
  readonly base: readonly Phase[];
  /** The open schedule follows the changes (rate, throughput); the others keep theirs and only end sooner. */
  readonly reshapes: boolean;
  /** Bumped by every change: a pacer compares it to know its schedule is stale. */
  version = 0;
  readonly #changes: ScheduleChange[] = [];
  readonly #connections: Array<{ atMs: number; count: number }> = [];
  readonly #warmupMs: number;
  #wake: () => void = () => {};
  #changed: Promise<void>;

  /** `share`: this worker's part of a whole load's connections (HTTP/2: in stream slots). */
  constructor(
    config: SteeredConfig,
    private readonly startMs: number,
    spanMs: number,
    private readonly onEnd: (endMs: number) => void,
    private readonly share: (connections: number) => number = (connections) => connections,
  ) {
    this.base = basePhasesOf(config, spanMs);
    this.reshapes = modelFactsOf(config.model)?.steers.includes("rate") === true;
    this.#changed = this.#nextChange();
    this.#warmupMs = config.warmupMs;
  }

  /** Takes one change (or a replayed one, of any instant): the schedule and the end follow from now on. */
  add(change: SteerChange): void {
    const [scheduled] = scheduleChangesOf([change], this.#warmupMs);
    const atMs = scheduled.atMs;
    this.#changes.push(scheduled);
    this.#changes.sort((a, b) => a.atMs - b.atMs);
    if (change.action === "connections") {
      this.#connections.push({ atMs: this.startMs + atMs, count: this.share(change.connections!) });
      this.#connections.sort((a, b) => a.atMs - b.atMs);
    }
    if (change.action === "end-phase" || change.action === "stop") {
      this.onEnd(this.startMs + steeredDurationMs(this.base, this.#changes));
    }
    this.version++;
    this.interrupt();
  }

  /** Ends every wait for a change now (a stop request: nothing more is to be waited for). */
  interrupt(): void {
    const wake = this.#wake;
    this.#changed = this.#nextChange();
    wake();
  }

  /** The planned phases with every change so far applied. */
  phases(): Phase[] {
    return steeredPhases(this.base, this.#changes);
  }

  /** True once any change came: the plan alone no longer tells when the load is over. */
  get steered(): boolean {
    return this.version > 0;
  }

  /** Paused at `nowMs`: the last pause or resume at or before it was a pause. */
  pausedAt(nowMs: number): boolean {
    let paused = false;
    for (const c of this.#changes) {
      if (this.startMs + c.atMs > nowMs) break;
      if (c.action === "pause") paused = true;
      if (c.action === "resume") paused = false;
    }
    return paused;
  }

  /** This worker's connections at `nowMs`: the last change's share at or before it, else `planned`. */
  connectionsAt(nowMs: number, planned: number): number {
    let count = planned;
    for (const c of this.#connections) {
      if (c.atMs > nowMs) break;
      count = c.count;
    }
    return count;
  }

  /** The first instant after `nowMs` at which a change takes effect (Infinity: none known). */
  nextChangeAfter(nowMs: number): number {
    const next = this.#changes.find((c) => this.startMs + c.atMs > nowMs);
    return next === undefined ? Infinity : this.startMs + next.atMs;
  }

  /** Resolves at `dueMs` or on a change; a send due within a few ms gets the clock's own wait. */
  waitUntil(dueMs: number): Promise<void> {
    const aheadMs = dueMs - performance.now();
    if (aheadMs <= 0) return DONE;
    if (aheadMs <= RACE_ABOVE_MS) return waitUntil(dueMs);
    return this.#waitOrChange(dueMs, aheadMs);
  }

  async #waitOrChange(dueMs: number, aheadMs: number): Promise<void> {
    const version = this.version;
    await within(this.#changed, aheadMs - RACE_ABOVE_MS);
    if (version === this.version) await waitUntil(dueMs);
  }

  /** Waits for a change until `untilMs`; true when one came. */
  async waitChange(untilMs: number): Promise<boolean> {
    const version = this.version;
    const aheadMs = untilMs - performance.now();
    if (aheadMs > 0) await within(this.#changed, Math.min(aheadMs, 2 ** 31 - 1));
    return version !== this.version;
  }

  #nextChange(): Promise<void> {
    return new Promise((resolve) => this.#wake = resolve);
  }
}

/** The phases a load's changes apply to: its own (a rate load's), else one phase of `spanMs` at its rate. */
export function basePhasesOf(config: SteeredConfig, spanMs: number): Phase[] {
  if (config.phases) return withWarmup(config.phases, config.warmupMs);
  return [{ durationMs: spanMs, ratePerSec: config.ratePerSec ?? 0 }];
}

/** Recorded changes (seconds from the measured start) on the schedule's axis (ms from its start). */
export function scheduleChangesOf(changes: readonly SteerChange[], warmupMs: number): ScheduleChange[] {
  return changes.map(({ atSec, action, ratePerSec }) => ({
    atMs: atSec * 1000 + warmupMs,
    action,
    ratePerSec,
  }));
}
