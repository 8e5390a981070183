/**
 * @module
 * The connections a virtual user dials beside its load connection (HTTP/1.1) for a batch and other origins,
 * kept idle per origin between uses as k6's VUs do, closed with the user, watched and cut as the load's own.
 */
import { Connection } from "../../http/h1/connection.ts";
import type { LoadConnection } from "../../http/load_connection.ts";
import type { OriginPlace } from "./origins.ts";

export class SideConnections {
  readonly #idle = new Map<OriginPlace, Connection[]>();
  readonly #all: Connection[] = [];

  /** `watched`: the run's side connections (watchdog, end of run); `nextId`: a worker's id. */
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
