/**
 * @module
 * Sessions (Artillery's virtual user): a flow picked by weight, its steps in order on one connection, filled
 * from a data row and captures, with a cookie jar and checks. A failed step or empty capture fails the
 * session, a stop's cut neither; warm-up sessions are not counted. Imported only for a load with flows.
 */
import {
  type ConnectionShared,
  type LoadConnection,
  type StepConnection,
  stepConnectionOf,
} from "../http/load_connection.ts";
import { PickCycle } from "../http/request.ts";
import { CookieJar } from "../http/cookie_jar.ts";
import { REDIRECT_STATUSES } from "../http/kept_response.ts";
import type { Feeder } from "./feeder.ts";
import { type CapturedBytes, runExtract } from "./step_checks.ts";
import { encodeFlows, type GrpcStepMaker, KEEP_NONE, stepText } from "./flow_plan.ts";
import { FlowRecorder } from "../stats/flow_counters.ts";
import type { EncodedFlow, EncodedStep } from "./flow_plan.ts";
import type { Arrival } from "./executor.ts";
import { sleepUnlessAborted } from "../../system/sleep.ts";
import { type EncodedWsStep, type StepOutcome, WsSession } from "./ws_steps.ts";
import { WsStats } from "../http/ws/stats.ts";
import { MaskKeys } from "../../ws/frame_encoder.ts";
import { BufferBudget, DEFAULT_MAX_BUFFERED_BYTES } from "../../ws/buffer_budget.ts";
import type { AttackConfig } from "../config.ts";
import { endpointTable } from "../endpoint_table.ts";

export interface SessionRun {
  readonly shared: ConnectionShared;
  /** Aborted on a stop request or at the end of the graceful stop: no further step starts, thinks end. */
  readonly ended: AbortSignal;
  /** Aborted as the load's own span ends (before its graceful stop) or on a stop request. */
  readonly stopping?: AbortSignal;
  /** Connections script sessions dial beside their load connections: timed out and cut as the load's. */
  readonly sides?: Set<LoadConnection>;
}

/** What sessions take beyond their flows: data rows, cookies, and for ws steps the worker's counts. */
export interface SessionOptions {
  feeder: Feeder | null;
  cookies: boolean;
  https: boolean;
  ws?: { stats: WsStats; keys: MaskKeys; budget: BufferBudget } | null;
}

const NO_VALUES: Uint8Array[] = [];
/** One session in progress: where its steps go, what they fill, where they are recorded (null: warm-up). */
interface Session {
  run: SessionRun;
  conn: StepConnection;
  ws: WsSession | null;
  flowIndex: number;
  recorder: FlowRecorder | null;
  values: Uint8Array[];
  /** The bytes its captures keep (step_checks.ts caps them). */
  captured: CapturedBytes;
  jar: CookieJar | null;
}

/** Check counters of sessions in the warm-up (not recorded). */
const SCRATCH = { passed: new Uint32Array(64), failed: new Uint32Array(64) };

/** Runs sessions of a worker's flows and records them. */
export class FlowSessions {
  readonly recorder: FlowRecorder;
  readonly #flows: readonly EncodedFlow[];
  readonly #picker: PickCycle;

  /** `originMs`: start of the measured run; `offset` staggers the flow pick cycle between workers. */
  constructor(
    flows: readonly EncodedFlow[],
    weights: readonly number[],
    readonly originMs: number,
    offset = 0,
    readonly options: SessionOptions = { feeder: null, cookies: false, https: false },
  ) {
    this.#flows = flows;
    this.#picker = new PickCycle(weights, offset);
    this.recorder = new FlowRecorder(flows);
  }

  /** One session on `conn` from `arrivalMs` (negative: now); resolves with the responses received. */
  async run(run: SessionRun, load: LoadConnection, arrivalMs: number): Promise<number> {
    const conn = stepConnectionOf(load);
    const flowIndex = this.#picker.next();
    const flow = this.#flows[flowIndex];
    const startMs = arrivalMs < 0 ? performance.now() : arrivalMs;
    const recorder = startMs >= this.originMs ? this.recorder : null;
    const { feeder, cookies } = this.options;
    let values = NO_VALUES;
    if (feeder !== null || flow.names.length > 0) {
      const row = feeder === null ? NO_VALUES : feeder.next();
      if (row === null) {
        recorder?.noData(flowIndex);
        return 0;
      }
      values = new Array<Uint8Array>(flow.names.length);
      for (let k = 0; k < row.length; k++) values[k] = row[k];
    }
    const jar = cookies ? new CookieJar(this.options.https) : null;
    const wsParts = this.options.ws;
    const ws = flow.hasWs && wsParts
      ? new WsSession({ shared: run.shared, ended: run.ended, ...wsParts })
      : null;
    recorder?.sessionStarted(flowIndex);
    try {
      const session = { run, conn, flowIndex, recorder, values, captured: { bytes: 0 }, jar, ws };
      return await this.#steps(session, startMs, arrivalMs < 0);
    } finally {
      ws?.end();
      conn.endSession();
    }
  }

  /** The work of one arrival, chosen once per run: a session on a kept connection or one of its own. */
  arrival(run: SessionRun, perArrival: boolean): Arrival {
    if (!perArrival) return (conn, intendedMs) => this.run(run, conn, intendedMs);
    return async (conn, intendedMs) => {
      try {
        return await this.run(run, conn, intendedMs);
      } finally {
        conn.release();
      }
    };
  }

  async #steps(session: Session, startMs: number, closed: boolean): Promise<number> {
    const { run, conn, ws, recorder, flowIndex } = session;
    const flow = this.#flows[flowIndex];
    let responses = 0;
    let started = false;
    let lastEventMs = startMs;
    for (const step of flow.steps) {
      if (step.kind === "think") {
        // Leading thinks are waited for below, from the arrival time rather than from now.
        if (started) await sleepUnlessAborted(step.thinkMs, run.ended);
        continue;
      }
      if (step.kind === "request" && step.condition !== null && !step.condition(session.values)) continue;
      let sendMs: number;
      if (!started) {
        started = true;
        sendMs = startMs + flow.leadingThinkMs;
        if (flow.leadingThinkMs > 0) {
          await sleepUnlessAborted(sendMs - performance.now(), run.ended);
          // A closed loop's user sends as its think ends: a late timer is the worker's, not the target's.
          if (closed) sendMs = performance.now();
        }
      } else sendMs = performance.now();
      if (run.ended.aborted) return responses;
      const outcome = step.kind === "ws"
        ? await this.#wsStep(session, step, sendMs)
        : await this.#requestStep(session, step, sendMs, step.maxRedirects);
      // A request's response counts even when its capture then found nothing; a connect's handshake is none.
      const answered = outcome === "done" || outcome === "captureFailed";
      if (answered && (step.kind !== "ws" || (step.stepIndex >= 0 && step.handshake === null))) responses++;
      if (outcome !== "done") return responses;
      if (step.kind !== "ws") lastEventMs = conn.lastEventMs;
      else if (step.stepIndex >= 0) lastEventMs = ws!.lastEventMs;
    }
    recorder?.sessionCompleted(flowIndex, (lastEventMs - startMs) * 1000);
    return responses;
  }

  /** One request step on the session's connection, then its redirects (`left` more); its outcome. */
  async #requestStep(
    session: Session,
    step: Extract<EncodedStep, { kind: "request" }>,
    sendMs: number,
    left: number,
  ): Promise<StepOutcome> {
    const { run, conn, flowIndex, recorder, values, jar } = session;
    // A templated path or host is filled as text for the jar and redirects only (the connection fills bytes).
    const path = jar === null && step.maxRedirects === 0
      ? ""
      : stepText(step.request.path, step.pathParts, values);
    const host = jar === null ? "" : stepText(step.authority, step.authorityParts, values);
    const got = await conn.sendStep(
      sendMs,
      step,
      values,
      jar === null ? null : jar.line(host, path, Date.now()),
    );
    if (got === 0) {
      // Our own shutdown aborted it: not the target's failure, not counted (as the request is not).
      if (run.shared.stopping) return "stopped";
      recorder?.stepError(flowIndex, step.stepIndex);
      recorder?.sessionFailed(flowIndex);
      return "failed";
    }
    recorder?.stepResponse(flowIndex, step.stepIndex, (conn.lastEventMs - sendMs) * 1000);
    if (step.keep === KEEP_NONE) return "done";
    const kept = conn.keptResponse();
    if (jar !== null && conn.setCookie !== false) jar.set(kept.headers("set-cookie"), host, path, Date.now());
    if (step.maxRedirects > 0 && REDIRECT_STATUSES.includes(kept.status)) {
      const location = kept.headers("location");
      const hop = location.length === 0 ? null : step.hop(location[0], path, kept.status);
      // As got: past the most redirects the user fails; another origin's Location is not followed.
      if (hop !== null && left === 0) {
        recorder?.sessionFailed(flowIndex);
        return "failed";
      }
      if (hop !== null) return this.#requestStep(session, hop, performance.now(), left - 1);
    }
    if (step.extract === null) return "done";
    const response = step.grpc === null ? kept : step.grpc.read(kept);
    const counters = recorder?.checks(flowIndex, step.stepIndex) ?? SCRATCH;
    const miss = runExtract(step.extract, response, values, counters, session.captured);
    if (miss === null) return "done";
    if (miss.kind === "too-big") {
      run.shared.recorder.recordError(
        performance.now(),
        "body-too-large",
        miss.message,
        step.request.endpoint,
      );
    }
    recorder?.captureFailed(flowIndex);
    return "captureFailed";
  }

  /** One ws step, recorded as a flow step when it is timed; its outcome (failures recorded here). */
  async #wsStep(session: Session, step: EncodedWsStep, sendMs: number): Promise<StepOutcome> {
    const { flowIndex, recorder, values, jar } = session;
    const ws = session.ws!;
    const timed = step.stepIndex >= 0;
    const counters = (timed ? recorder?.checks(flowIndex, step.stepIndex) : undefined) ?? SCRATCH;
    // The handshake carries the session's cookies for its origin, as a browser's does.
    const cookieLine = jar === null || step.handshake === null
      ? null
      : jar.line(step.host, step.path, Date.now());
    const outcome = await ws.step(step, values, counters, cookieLine, session.captured);
    if (outcome === "failed") {
      if (timed) recorder?.stepError(flowIndex, step.stepIndex);
      recorder?.sessionFailed(flowIndex);
    } else if (outcome === "captureFailed") recorder?.captureFailed(flowIndex);
    if (outcome !== "failed" && outcome !== "stopped" && timed) {
      recorder?.stepResponse(flowIndex, step.stepIndex, (ws.lastEventMs - sendMs) * 1000);
    }
    return outcome;
  }
}

/** A worker's flows from `originMs` (null: none), their steps encoded for its protocol. */
export function flowSessionsOf(config: AttackConfig, originMs: number, place: {
  workerIndex: number;
  /** A WebSocket load's flows: its connections count the messages (ws/run.ts). */
  wsLoad: boolean;
  feeder: Feeder | null;
  h2Steps: boolean;
  grpcSteps: GrpcStepMaker | null;
}): FlowSessions | null {
  if (config.flows === undefined) return null;
  const url = new URL(config.url);
  const cookies = config.cookies ?? true;
  const plans = encodeFlows(
    url,
    config.flows,
    config.data?.columns,
    cookies,
    place.h2Steps,
    endpointTable(config).flows,
    config.timeoutMs,
    place.grpcSteps,
  );
  const ws = !place.wsLoad && config.flows.some((f) => f.steps.some((s) => "ws" in s))
    ? {
      stats: new WsStats(),
      keys: new MaskKeys(),
      budget: new BufferBudget(config.ws?.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES),
    }
    : null;
  const weights = config.flows.map((f) => f.weight);
  return new FlowSessions(plans, weights, originMs, place.workerIndex * 7919, {
    feeder: place.feeder,
    cookies,
    https: url.protocol === "https:",
    ws,
  });
}
