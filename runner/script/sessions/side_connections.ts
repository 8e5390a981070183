/**
 * @module
 * The connections a virtual user dials beside its load connection (HTTP/1.1, one request in flight on
 * each): a batch's requests in parallel (`s.batch`, k6's `http.batch`) and requests to another origin.
 * Kept idle per origin between uses, so a user's next batches reuse them as k6's VUs do, and closed with
 * the user (its open arrival's end, or its closed loop's). Each is in the run's set of side connections
 * while it lives, so the worker's watchdog times its exchanges out and the run's end cuts them (counted
 * as `unfinished`, as the load's own); they count in the open-connections gauge by their dials.
 */
import { Connection } from "../../http/h1/connection.ts";
import type { LoadConnection } from "../../http/load_connection.ts";
import type { OriginPlace } from "./origins.ts";

/** A virtual user's side connections. */
export class SideConnections {
  readonly #idle = new Map<OriginPlace, Connection[]>();
  readonly #all: Connection[] = [];

  /**
   * `watched`: the run's side connections (watchdog, end of run); `nextId`: a connection id of the worker's.
   */
  constructor(readonly watched: Set<LoadConnection> | undefined, readonly nextId: () => number) {}

  /** An idle connection to `place`, else a new one (dialled by its first exchange). */
  take(place: OriginPlace): Connection {
    const kept = this.#idle.get(place)?.pop();
    if (kept !== undefined) return kept;
    const conn = new Connection(this.nextId(), place.shared, 1);
    this.#all.push(conn);
    this.watched?.add(conn);
    return conn;
  }

  /** `conn`'s exchange ended: idle, for the user's next request to `place`. */
  give(place: OriginPlace, conn: Connection): void {
    const idle = this.#idle.get(place);
    if (idle === undefined) this.#idle.set(place, [conn]);
    else idle.push(conn);
  }

  /** The user is done: every connection closed (a close of our own, not a failure) and unwatched. */
  close(): void {
    for (const conn of this.#all) {
      conn.release();
      this.watched?.delete(conn);
    }
    this.#all.length = 0;
    this.#idle.clear();
  }
}
