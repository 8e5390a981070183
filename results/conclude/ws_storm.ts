/**
 * @module
 * What a WebSocket connection storm (`ws.messagesPerConnection` N with a requested rate) asked for and did,
 * like with like: connections per second requested (the run's `targetRps` counts messages, N per
 * connection, so it is divided back) against connections opened in the measured run (handshakes less the
 * pre-connected pool's), and messages per connection sent against N. Statements with their preconditions:
 *
 * - a storm opened short: below the requested connection rate by more than `SHORTFALL_SHARE`, with at
 *   least `MIN_HELD_SENDS` connections missing over the window (one in a sparse run says nothing);
 * - its connections sent short: fewer messages per opened connection than N by more than that share (the
 *   server closed them, or their messages were never answered);
 * - its connections outlasted the window: more than that share of its answered messages came after the load
 *   window (`drained`), at least `MIN_HELD_SENDS` of them. A connection that takes T to send its N messages
 *   serves the requested rate only from T on, so in a window D its rate is a ramp's, about 1 - T/2D of it:
 *   every connection opened and sent its N (neither statement above), yet half the messages came after a
 *   window barely longer than T (`-R 20 --ws-per-connection 100 -d 2s` on a 20 ms echo read ok).
 *
 * Null for a run that is no storm (HTTP, a closed or hold WebSocket run), or one without a requested rate
 * or a `ws` section. Pure: numbers of the results file in, statements out.
 */
import type { RunResult } from "../schema/results.ts";
import { MIN_HELD_SENDS } from "./bound_verdict.ts";
import { formatRate, SHORTFALL_SHARE } from "./served_rate.ts";
import { formatCount, formatDurationMs } from "../text_format.ts";

/**
 * What a run's requests are, so runs of different kinds are never compared as one (a baseline's HTTP
 * requests against WebSocket messages): HTTP requests, WebSocket messages on kept connections, a storm's
 * (N per connection, connect and handshake on every N), or hold's pings.
 */
export function requestKind(run: Pick<RunResult, "url" | "config">): string {
  if (!/^wss?:/i.test(run.url)) return "HTTP requests";
  const ws = (run.config?.ws ?? {}) as { messagesPerConnection?: unknown; pingIntervalMs?: unknown };
  if (typeof ws.pingIntervalMs === "number" && ws.pingIntervalMs > 0) return "WebSocket pings (hold)";
  if (typeof ws.messagesPerConnection === "number" && ws.messagesPerConnection > 0) {
    return `WebSocket messages, ${ws.messagesPerConnection} per connection (storm)`;
  }
  return "WebSocket messages";
}

/** A storm's requested and opened connections, and its messages per connection. */
export interface StormFacts {
  /** Messages each connection was to send (N). */
  messagesPerConnection: number;
  /** Connections per second requested; opened in the measured run, per second and in all. */
  requestedPerSec: number;
  openedPerSec: number;
  opened: number;
  /** Messages sent per opened connection (NaN without one). */
  sentPerConnection: number;
}

/** The storm's facts, or null when the run is no open storm (see the module comment). */
export function stormFacts(
  run: Pick<RunResult, "config" | "targetRps" | "durationSec" | "ws">,
): StormFacts | null {
  const n = (run.config?.ws as { messagesPerConnection?: unknown } | undefined)?.messagesPerConnection;
  if (typeof n !== "number" || !(n > 0) || run.ws === undefined) return null;
  if (run.targetRps === null || !(run.targetRps > 0) || !(run.durationSec > 0)) return null;
  const opened = Math.max(0, run.ws.handshakes - (run.ws.preConnectedHandshakes ?? 0));
  return {
    messagesPerConnection: n,
    requestedPerSec: run.targetRps / n,
    openedPerSec: opened / run.durationSec,
    opened,
    sentPerConnection: opened > 0 ? run.ws.messagesSent / opened : Number.NaN,
  };
}

/** True when the storm opened connections short of the requested rate (see the module comment). */
export function openedShort(facts: StormFacts, durationSec: number): boolean {
  const missing = (facts.requestedPerSec - facts.openedPerSec) * durationSec;
  return facts.openedPerSec < facts.requestedPerSec * (1 - SHORTFALL_SHARE) && missing >= MIN_HELD_SENDS;
}

/** True when its connections sent fewer messages each than N (see the module comment). */
export function sentShort(facts: StormFacts): boolean {
  return facts.sentPerConnection < facts.messagesPerConnection * (1 - SHORTFALL_SHARE);
}

/**
 * "opened 35 of 100 conn/s, 2.0 of 5 messages each": what the storm fell short of, or "" when it opened
 * and sent what it was asked.
 */
export function stormShortText(run: Pick<RunResult, "config" | "targetRps" | "durationSec" | "ws">): string {
  const facts = stormFacts(run);
  if (facts === null) return "";
  const parts: string[] = [];
  if (openedShort(facts, run.durationSec)) {
    parts.push(`opened ${formatRate(facts.openedPerSec)} of ${formatRate(facts.requestedPerSec)} conn/s`);
  }
  if (facts.opened > 0 && sentShort(facts)) {
    parts.push(`${facts.sentPerConnection.toFixed(1)} of ${facts.messagesPerConnection} messages each`);
  }
  return parts.join(", ");
}

/**
 * "2,066 of 3,998 messages after the 2.00 s window (...)": a storm whose connections outlasted the window,
 * else "". Its own statement, beside any bound flag: the window's length, not who was slower, made the
 * rate a ramp's.
 */
export function stormOutlastText(
  run: Pick<RunResult, "config" | "targetRps" | "durationSec" | "ws" | "requests" | "drained">,
): string {
  const late = run.drained ?? 0;
  if (stormFacts(run) === null || late < MIN_HELD_SENDS || late <= run.requests * SHORTFALL_SHARE) return "";
  return `${formatCount(late)} of ${formatCount(run.requests)} messages after the ` +
    `${formatDurationMs(run.durationSec * 1000)} window (its connections outlast the run: run it longer)`;
}
