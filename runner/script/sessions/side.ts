/**
 * @module
 * A session's exchanges beside its one request at a time: a batch's (`s.batch`) and requests to other
 * origins, on the session's connection while free or on the user's side connections. The session counts
 * them in flight until the last one ends.
 */
import { Connection } from "../../http/h1/connection.ts";
import type { CookieJar } from "../../http/cookie_jar.ts";
import type { SessionRun } from "../../load/flow_session.ts";
import type { BatchLimits, Response } from "../session.ts";
import type { OriginPlace } from "./origins.ts";
import { BATCH_PARALLEL, BATCH_PER_HOST, type BatchRequest, SessionBatch } from "./batch.ts";
import type { SideConnections } from "./side_connections.ts";
import type { ScriptNames } from "./names.ts";
import { failedResponse } from "./response.ts";
import {
  batchLimit,
  encodeScriptRequest,
  exchangeKept,
  ownDeadline,
  type ScriptSend,
  type SessionConnection,
} from "./send.ts";

interface SideHost {
  readonly conn: SessionConnection;
  readonly run: SessionRun;
  readonly names: ScriptNames;
  /** The step of a request named `name` (-1 unrecorded); it becomes the session's checks' step. */
  step(name: string): number;
  jar(): CookieJar | null;
  sides(): SideConnections;
  /** A request's send time: the arrival's intended time for the session's first, else now. */
  sendMs(): number;
  sending(wait: Promise<unknown> | null): void;
  counted(step: number, got: number, latencyMs: number): boolean;
  /** The response, its Set-Cookie lines kept in the jar if `keep` (the request's `cookies` not false). */
  responseOf(conn: SessionConnection, url: URL, path: string, keep: boolean): Response;
  cut(): void;
}

interface SideExchange {
  readonly conn: SessionConnection;
  readonly place: OriginPlace;
  readonly step: number;
  readonly path: string;
  readonly keep: boolean;
  sendMs: number;
}

export class SessionSides {
  batch: SessionBatch | null = null;
  #inFlight = 0;
  #drained: (() => void) | null = null;
  #loadBusy = false;

  constructor(readonly host: SideHost) {}

  /** Whether a batch or any exchange of these is in progress (a plain request must wait for them). */
  get busy(): boolean {
    return this.batch !== null || this.#inFlight > 0;
  }

  async inBatch<T>(send: () => Promise<T>, limits: BatchLimits): Promise<T> {
    if (this.batch !== null) return await send();
    const host = this.host;
    const batch = new SessionBatch(
      batchLimit(limits.parallel, "parallel", BATCH_PARALLEL),
      batchLimit(limits.perHost, "perHost", BATCH_PER_HOST),
      // An HTTP/2 stream slot is the session's one lane to the target: its requests go one at a time.
      host.conn instanceof Connection ? Infinity : 1,
      (request, batch) => this.send(request, batch),
      () => host.run.ended.aborted,
    );
    this.batch = batch;
    try {
      return await send();
    } finally {
      if (this.batch === batch) this.batch = null;
    }
  }

  send(request: BatchRequest, batch: SessionBatch | null): Promise<Response> {
    const host = this.host;
    const { place } = request;
    const own = place.target && !this.#loadBusy;
    const conn = own ? host.conn : host.sides().take(place);
    let encoded: ScriptSend;
    try {
      const at = { requests: place.requests, names: host.names };
      const { method, target, options } = request;
      encoded = { ...encodeScriptRequest(at, host.run.shared, conn, host.jar(), method, target, options) };
    } catch (err) {
      if (!own) host.sides().give(place, conn as Connection);
      batch?.ended(place);
      return Promise.reject(err);
    }
    if (own) this.#loadBusy = true;
    const keep = request.options.cookies !== false;
    const x: SideExchange = {
      conn,
      place,
      step: host.step(encoded.name),
      path: encoded.path,
      keep,
      sendMs: 0,
    };
    if (this.#inFlight++ === 0) host.sending(new Promise<void>((resolve) => this.#drained = resolve));
    const timeoutMs = request.options.timeoutMs;
    // Opened first when the request has a timeout of its own, so it counts from the send.
    const exchange = timeoutMs !== undefined && !conn.isOpen
      ? conn.open(encoded.sent.endpoint).then((opened) =>
        opened ? this.#write(x, encoded.sent, timeoutMs) : 0
      )
      : this.#write(x, encoded.sent, timeoutMs);
    return exchange.then((got) => this.#ended(x, got, batch), (err) => {
      this.#ended(x, 0, batch);
      throw err;
    });
  }

  #write(x: SideExchange, sent: ScriptSend["sent"], timeoutMs: number | undefined): Promise<number> {
    const conn = x.conn;
    x.sendMs = this.host.sendMs();
    const exchange = exchangeKept(conn, x.sendMs, sent);
    ownDeadline(conn, timeoutMs);
    return exchange;
  }

  #ended(x: SideExchange, got: number, batch: SessionBatch | null): Response {
    const host = this.host;
    const { conn, place } = x;
    const response = host.counted(x.step, got, conn.lastEventMs - x.sendMs)
      ? host.responseOf(conn, place.requests.url, x.path, x.keep)
      : failedResponse(conn, host.run.shared.recorder);
    if (conn === host.conn) this.#loadBusy = false;
    else host.sides().give(place, conn as Connection);
    batch?.ended(place);
    if (--this.#inFlight === 0) {
      host.sending(null);
      const drained = this.#drained!;
      this.#drained = null;
      drained();
      if (host.run.ended.aborted) host.cut();
    }
    return response;
  }
}
