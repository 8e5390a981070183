/**
 * @module
 * The main isolate's side of steering: a request (dashboard, `loadlab steer`) checked against the run under
 * way, refused with the reason or stamped a little ahead, sent to every worker and recorded for results.
 */
import type { AttackConfig } from "./config.ts";
import { measuredDurationMs } from "./load/models/mod.ts";
import type { LoadModel } from "../results/mod.ts";
import {
  MAX_STEER_CONNECTIONS,
  MAX_STEER_RATE_PER_SEC,
  STEER_ACTIONS,
  type SteerAction,
  type SteerChange,
} from "../results/schema/steering.ts";
import { basePhasesOf, scheduleChangesOf } from "./load/steer.ts";
import { steeredDurationMs, steeredPhases } from "./load/steer_schedule.ts";
import { phasesSchedule } from "./load/schedule.ts";
import { firstDueFrom } from "./load/pacer.ts";
import { LOAD_MODEL_FACTS } from "../results/load_models.ts";
import { LOAD_MODELS } from "../results/schema/keys.ts";

/** How far ahead of the request a change takes effect: time for the message to reach every worker. */
const STEER_LEAD_MS = 100;

/** A change as asked for, not yet checked (a control request's JSON body). */
interface SteerRequest {
  action?: unknown;
  ratePerSec?: unknown;
  connections?: unknown;
}

/** What the controls show: the run under way and where its steering stands. */
export type SteerState = ReturnType<RunSteering["state"]>;

type SteerOutcome =
  | { ok: true; change: SteerChange; state: SteerState }
  | { ok: false; status: 400 | 409; reason: string };

interface RunUnderWay {
  name: string;
  config: AttackConfig;
  send: ((change: SteerChange) => void) | null;
  originEpochMs: number;
  changes: SteerChange[];
  paused: boolean;
  ratePerSec: number | null;
  connections: number | null;
}

/** Steering for every run of one command; `onChange` hears changes, `onState` each load's start and end. */
export class RunSteering {
  #run: RunUnderWay | null = null;
  onChange: (change: SteerChange, state: SteerState) => void = () => {};
  onState: (state: SteerState) => void = () => {};

  /** A run begins (not yet started: requests wait for `started`). */
  begin(name: string, config: AttackConfig): void {
    const steered = LOAD_MODEL_FACTS[config.model].steers.includes("connections") && "connections" in config;
    const connections = steered ? config.connections : null;
    this.#run = {
      name,
      config,
      send: null,
      originEpochMs: 0,
      changes: [],
      paused: false,
      ratePerSec: null,
      connections,
    };
  }

  /** The workers started: the measured part begins at `originEpochMs`; `send` reaches every worker. */
  started(originEpochMs: number, send: ((change: SteerChange) => void) | null): void {
    if (this.#run === null) return;
    this.#run.originEpochMs = originEpochMs;
    this.#run.send = send;
    this.onState(this.state());
  }

  /** The run ended: its changes, in order; requests are refused until the next run starts. */
  end(): SteerChange[] {
    const changes = this.#run?.changes ?? [];
    const wasRunning = this.#run?.send != null;
    this.#run = null;
    if (wasRunning) this.onState(this.state());
    return changes;
  }

  state() {
    const run = this.#run;
    return {
      running: run?.send != null,
      run: run?.name ?? null,
      model: run?.config.model ?? null,
      paused: run?.paused ?? false,
      /** The rate set by the last rate change (null: as planned). */
      ratePerSec: run?.ratePerSec ?? null,
      /** The connections of a closed run now (planned or steered); null for the others. */
      connections: run?.connections ?? null,
      /** The run's warm-up (s): a change's `atSec` counts from its end. */
      warmupSec: (run?.config.warmupMs ?? 0) / 1000,
      changes: run?.changes ?? [],
    };
  }

  /** Checks `req` against the run under way; applies and records it, or says why not. */
  request(req: SteerRequest, by: "dashboard" | "terminal"): SteerOutcome {
    const run = this.#run;
    if (run === null || run.send === null) {
      return { ok: false, status: 409, reason: "no load is running now (before its start or between runs)" };
    }
    const nowEpochMs = performance.timeOrigin + performance.now();
    const atSec = Math.round(nowEpochMs + STEER_LEAD_MS - run.originEpochMs) / 1000;
    const checked = checkRequest(req, run, atSec);
    if ("reason" in checked) return { ok: false, status: checked.status, reason: checked.reason };
    const change: SteerChange = { atSec, ...checked.change, by };
    run.changes.push(change);
    if (change.action === "pause" || change.action === "resume") run.paused = change.action === "pause";
    if (change.action === "rate") run.ratePerSec = change.ratePerSec!;
    if (change.action === "connections") run.connections = change.connections!;
    run.send(change);
    const state = this.state();
    this.onChange(change, state);
    return { ok: true, change, state };
  }
}

type Checked = { change: Omit<SteerChange, "atSec"> } | { status: 400 | 409; reason: string };

/** Whether `req` may apply to `run` at `atSec`: the change to make, or the reason it is refused. */
function checkRequest(req: SteerRequest, run: RunUnderWay, atSec: number): Checked {
  const action = req.action;
  if (typeof action !== "string" || !(STEER_ACTIONS as readonly string[]).includes(action)) {
    return bad(`action must be one of ${STEER_ACTIONS.join(", ")} (found ${JSON.stringify(action)})`);
  }
  const { config } = run;
  if (config.segment) {
    const { index, count } = config.segment;
    return bad(
      `this generator runs segment ${index} of ${count} of a split load: a change here would steer only its part`,
    );
  }
  const planned = basePhasesOf(config, config.warmupMs + measuredDurationMs(config));
  const endSec =
    (steeredDurationMs(planned, scheduleChangesOf(run.changes, config.warmupMs)) - config.warmupMs) / 1000;
  if (atSec >= endSec) return { status: 409, reason: "the load has ended (its graceful stop is under way)" };
  const misfit = modelMisfit(action as SteerAction, config.model);
  return misfit ? bad(misfit) : changeFor(action as SteerAction, req, run, atSec);
}

/** Why `action` cannot apply to a run of `model`, or null (the live check and `--replay`'s). */
export function modelMisfit(action: SteerAction, model: LoadModel): string | null {
  const facts = LOAD_MODEL_FACTS[model];
  if (facts.steers.includes(action)) return null;
  if (facts.steerRefusal !== undefined) return facts.steerRefusal;
  const fits = LOAD_MODELS.filter((m) => LOAD_MODEL_FACTS[m].steers.includes(action)).join(", ");
  return action === "rate"
    ? `a rate applies to the open models (${fits}); this run's model is ${model}`
    : `connections apply to the closed model (${fits}); this run's model is ${model}`;
}

/** The change `action` makes to `run` now, or why its value or the run's state refuses it. */
function changeFor(action: SteerAction, req: SteerRequest, run: RunUnderWay, atSec: number): Checked {
  switch (action) {
    case "pause":
      return run.paused ? bad("already paused") : { change: { action: "pause" } };
    case "resume":
      return run.paused ? { change: { action: "resume" } } : bad("not paused");
    case "rate": {
      const rate = req.ratePerSec;
      if (typeof rate !== "number" || !(rate > 0) || rate > MAX_STEER_RATE_PER_SEC) {
        const found = JSON.stringify(rate);
        return bad(`ratePerSec must be a number > 0 and at most ${MAX_STEER_RATE_PER_SEC} (found ${found})`);
      }
      return { change: { action: "rate", ratePerSec: rate } };
    }
    case "connections": {
      const n = req.connections, workers = run.config.workers;
      if (typeof n !== "number" || !Number.isInteger(n) || n < workers || n > MAX_STEER_CONNECTIONS) {
        return bad(
          `connections must be a whole number from ${workers} (one per worker) to ` +
            `${MAX_STEER_CONNECTIONS} (found ${JSON.stringify(n)})`,
        );
      }
      return { change: { action: "connections", connections: n } };
    }
    case "end-phase":
      return atSec < 0
        ? bad("the warm-up is under way: it ends by itself")
        : { change: { action: "end-phase" } };
    case "stop":
      return { change: { action: "stop" } };
  }
}

function bad(reason: string): Checked {
  return { status: 400, reason };
}

/** The arrivals per second a steered open load asked for over its measured part, pauses included. */
export function steeredArrivalsPerSec(
  config: AttackConfig,
  changes: readonly SteerChange[],
  plannedMs: number,
  measuredMs: number,
): number {
  const base = basePhasesOf(config, config.warmupMs + plannedMs);
  const schedule = phasesSchedule(steeredPhases(base, scheduleChangesOf(changes, config.warmupMs)));
  const from = firstDueFrom(schedule, 0, 1, config.warmupMs);
  const to = firstDueFrom(schedule, 0, 1, config.warmupMs + measuredMs);
  return measuredMs > 0 ? ((to - from) * 1000) / measuredMs : 0;
}
