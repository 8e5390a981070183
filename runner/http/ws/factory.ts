/**
 * @module
 * The WebSocket entry of a worker's connection making: one `WsConnection` per load connection, in the
 * protocol table's shape (protocols.ts `ConnectionFactory`), so the executors, watchdog and graceful
 * stop drive WebSocket runs as they drive HTTP ones.
 */
import type { ConnectionFactory } from "../protocols.ts";
import type { ConnectionShared } from "../load_connection.ts";
import { WsConnection } from "./connection.ts";
import type { WsRun } from "./run.ts";

/** A worker's WebSocket connections. */
export function wsConnections(shared: ConnectionShared, run: WsRun): ConnectionFactory {
  return {
    perConnection: 1,
    h2Steps: false,
    next: (id) => new WsConnection(id, shared, run),
    maxOpenStreams: () => 0,
  };
}
