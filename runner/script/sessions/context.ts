/**
 * @module
 * What a worker's script sessions share (session.ts's `ScriptSession`, run by worker_sessions.ts):
 * the run's options for them, the worker's encoders, names and origins, and where each session's end is
 * counted and its connection handed on, and what a virtual user keeps between its sessions. Types only.
 */
import type { SessionRun } from "../../load/flow_session.ts";
import type { Feeder } from "../../load/feeder.ts";
import type { Session } from "../session.ts";
import type { ScriptGrpcAnswer, ScriptGrpcRequests } from "./grpc.ts";
import type { ScriptGrpcSchema } from "./grpc_schema.ts";
import type { ScriptRequests } from "./request.ts";
import type { ScriptRecorder } from "./recorder.ts";
import type { ScriptNames } from "./names.ts";
import type { SessionConnection } from "./send.ts";
import type { SessionEnd } from "./end.ts";
import type { ScriptOrigins } from "./origins.ts";
import type { CookieJar } from "../../http/cookie_jar.ts";
import type { SideConnections } from "./side_connections.ts";

/** What script sessions need beyond the run. */
export interface ScriptSessionOptions {
  url: URL;
  /** The script's path (its errors are placed relative to its folder). */
  path: string;
  /** Start of the measured run: sessions before it run but are not counted. */
  originMs: number;
  feeder: Feeder | null;
  columns: readonly string[];
  cookies: boolean;
  setupData: unknown;
  env: Readonly<Record<string, string>>;
  workerIndex: number;
  workerCount: number;
  /**
   * The script's `start(s)` (Locust's `on_start`), else null: run once per virtual user before its first
   * session, and then the user's cookie jar is kept from one of its sessions to the next.
   */
  start?: ((s: Session) => unknown) | null;
  /** Origins the script names (`https://api.example.com`) sent to another URL each, else its own. */
  routes?: Readonly<Record<string, string>>;
  /** The schema the script declares for `s.grpc` (`export const grpc`), else null. */
  grpc?: ScriptGrpcSchema | null;
}

/** What a session shares with the worker's other sessions of the script. */
export interface SessionContext {
  readonly options: ScriptSessionOptions;
  readonly requests: ScriptRequests;
  readonly names: ScriptNames;
  /** Each stream slot's judge of the script's gRPC calls on it, made at its first call. */
  readonly grpcAnswers: WeakMap<object, ScriptGrpcAnswer>;
  /** The script's gRPC calls as HTTP/2 requests, their heads encoded once each. */
  readonly grpcRequests: ScriptGrpcRequests;
  /** The origins its sessions send to: the target, and any other one a script names by URL. */
  readonly origins: ScriptOrigins;
  /** An id for a connection a virtual user dials beside its load connection (side_connections.ts). */
  sideId(): number;
  /** Counts a session's outcome (completed, failed, cut) as it ends; it is no longer live. */
  counted(s: SessionEnd, outcome: unknown, failed: boolean, at: SessionCount): void;
  /** The session's connection is free (`nowMs`): the chain's next session starts, or the chain ends. */
  handOn(chain: SessionChain, responses: number, nowMs: number): void;
}

/**
 * The sessions one arrival runs on its connection: one, or a closed loop's one after another while its
 * `next` grants them (executor.ts `Arrival`), and what resolves the arrival when they end.
 */
export interface SessionChain {
  readonly run: SessionRun;
  readonly load: SessionConnection;
  readonly next: ((depth: number, nowMs: number) => number) | null;
  readonly done: (responses: number) => void;
}

/** Where and when a session ending is counted. */
export interface SessionCount {
  readonly run: SessionRun;
  readonly recorder: ScriptRecorder | null;
  readonly startMs: number;
  readonly nowMs: number;
}

/**
 * What a closed load's virtual user keeps from one session to the next: `S` its sessions, `Sender` what
 * they send with (sender.ts, which reads this type, so it is named by its user).
 */
export interface VirtualUser<S, Sender = unknown> {
  state: Record<string, unknown>;
  jar: CookieJar | null;
  /** Its sessions started so far (the next one's `iteration`). */
  sessions: number;
  /** Its session in progress (a user runs one at a time; the last one once they ended). */
  current?: S;
  /** What its sessions send with (sender.ts): made at its first session, not at each. */
  sender?: Sender;
  /** The connections it dialled beside its load connection (a batch's, another origin's), once it did. */
  sides?: SideConnections;
}
