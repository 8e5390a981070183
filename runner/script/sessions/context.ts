/**
 * @module
 * What a worker's script sessions share, and what a virtual user keeps between its sessions.
 */
import type { SessionRun } from "../../load/flow_session.ts";
import type { Feeder } from "../../load/feeder.ts";
import type { AttackConfig } from "../../config.ts";
import type { ScriptModule } from "../module.ts";
import type { ScriptGrpcAnswer, ScriptGrpcRequests } from "./grpc.ts";
import type { ScriptRequests } from "./request.ts";
import type { ScriptRecorder } from "./recorder.ts";
import type { ScriptNames } from "./names.ts";
import type { SessionConnection } from "./send.ts";
import type { ScriptOrigins } from "./origins.ts";
import type { CookieJar } from "../../http/cookie_jar.ts";
import type { SideConnections } from "./side_connections.ts";

/** Where a worker's sessions run: the run's config, the worker's share and the measured run's start. */
export interface ScriptPlace {
  config: AttackConfig;
  /** Start of the measured run: sessions before it run but are not counted. */
  originMs: number;
  feeder: Feeder | null;
  workerIndex: number;
  workerCount: number;
}

export type ScriptConfig = NonNullable<AttackConfig["script"]>;

export interface SessionContext {
  readonly module: ScriptModule;
  readonly script: ScriptConfig;
  readonly place: ScriptPlace;
  readonly requests: ScriptRequests;
  readonly names: ScriptNames;
  readonly grpcAnswers: WeakMap<object, ScriptGrpcAnswer>;
  readonly grpcRequests: ScriptGrpcRequests;
  readonly origins: ScriptOrigins;
  sideId(): number;
  counted(s: EndingSession, outcome: unknown, failed: boolean, at: SessionCount, nowMs: number): void;
  handOn(chain: SessionChain, responses: number, nowMs: number): void;
}

/** The outcome of a session the run ended under (script code never sees it). */
export const CUT = Symbol("cut");

/** A session as its sender ends it (script sessions, session.ts). */
export interface EndingSession {
  settle(outcome: unknown, failed: boolean): void;
}

/** The sessions one arrival runs on its connection: one, or a closed loop's while `next` grants them. */
export interface SessionChain {
  readonly run: SessionRun;
  readonly load: SessionConnection;
  readonly next: ((depth: number, nowMs: number) => number) | null;
  readonly done: (responses: number) => void;
  /** A closed loop's user (its connection slot's), once looked up. */
  user?: VirtualUser<any, any>;
}

/** The sender of the session counted (its run, recorder and start). */
export interface SessionCount {
  readonly run: SessionRun;
  readonly recorder: ScriptRecorder | null;
  readonly startMs: number;
}

export interface VirtualUser<S, Sender = unknown> {
  state: Record<string, unknown>;
  jar: CookieJar | null;
  sessions: number;
  /** Its `stop` began: the user's last session. */
  stopped?: boolean;
  current?: S;
  sender?: Sender;
  sides?: SideConnections;
}
