/**
 * @module
 * A WebSocket connection storm's asks against what it did (null for no storm), and whether its answers can be
 * believed: an echo or nth rule takes any message as an answer, so a flooding server looks answered. Pure.
 */
import type { RunResult } from "../schema/results.ts";
import { MIN_HELD_SENDS, servedShortfall, SHORTFALL_SHARE } from "./served_rate.ts";
import { formatCount, formatDurationMs, formatRounded } from "../text_format.ts";

/** What a run's requests are, so runs of different kinds are never compared as one. */
export function requestKind(run: Pick<RunResult, "url" | "config">): string {
  if (!/^wss?:/i.test(run.url)) return "HTTP requests";
  const ws = (run.config?.ws ?? {}) as { messagesPerConnection?: unknown; pingIntervalMs?: unknown };
  if (typeof ws.pingIntervalMs === "number" && ws.pingIntervalMs > 0) return "WebSocket pings (hold)";
  if (typeof ws.messagesPerConnection === "number" && ws.messagesPerConnection > 0) {
    return `WebSocket messages, ${ws.messagesPerConnection} per connection (storm)`;
  }
  return "WebSocket messages";
}

/** The storm's facts, or null when the run is no open storm (see the module comment). */
export function stormFacts(run: Pick<RunResult, "config" | "targetRps" | "durationSec" | "ws">) {
  const n = (run.config?.ws as { messagesPerConnection?: unknown } | undefined)?.messagesPerConnection;
  if (typeof n !== "number" || !(n > 0) || run.ws === undefined) return null;
  if (run.targetRps === null || !(run.targetRps > 0) || !(run.durationSec > 0)) return null;
  const opened = Math.max(0, run.ws.handshakes - (run.ws.preConnectedHandshakes ?? 0));
  return {
    /** Messages each connection was to send (N). */
    messagesPerConnection: n,
    /** Connections per second requested; opened in the measured run, per second and in all. */
    requestedPerSec: run.targetRps / n,
    openedPerSec: opened / run.durationSec,
    opened,
    /** Messages sent per opened connection (NaN without one). */
    sentPerConnection: opened > 0 ? run.ws.messagesSent / opened : Number.NaN,
  };
}

/** "opened 35 of 100 conn/s, 2.0 of 5 messages each", or "" when the storm did what it was asked. */
export function stormShortText(run: Pick<RunResult, "config" | "targetRps" | "durationSec" | "ws">): string {
  const facts = stormFacts(run);
  if (facts === null) return "";
  const parts: string[] = [];
  // Opened short of the connections asked by the rule a served rate is short of its requested one.
  const opened = { rps: facts.openedPerSec, targetRps: facts.requestedPerSec, durationSec: run.durationSec };
  if (servedShortfall(opened) !== null) {
    parts.push(
      `opened ${formatRounded(facts.openedPerSec)} of ${formatRounded(facts.requestedPerSec)} conn/s`,
    );
  }
  if (facts.opened > 0 && facts.sentPerConnection < facts.messagesPerConnection * (1 - SHORTFALL_SHARE)) {
    parts.push(`${facts.sentPerConnection.toFixed(1)} of ${facts.messagesPerConnection} messages each`);
  }
  return parts.join(", ");
}

/** "2,066 of 3,998 messages after the 2.00 s window (...)" for a storm that outlasted its window; "". */
export function stormOutlastText(
  run: Pick<RunResult, "config" | "targetRps" | "durationSec" | "ws" | "requests" | "drained">,
): string {
  const late = run.drained ?? 0;
  if (stormFacts(run) === null || late < MIN_HELD_SENDS || late <= run.requests * SHORTFALL_SHARE) return "";
  return `${formatCount(late)} of ${formatCount(run.requests)} messages after the ` +
    `${formatDurationMs(run.durationSec * 1000)} window (its connections outlast the run: run it longer)`;
}

/** Unsolicited messages per answered one past which the answers are taken as the flood's. */
const FLOOD_RATIO = 100;
/** Fewer unsolicited messages than this say nothing of a flood. */
const MIN_FLOOD_MESSAGES = 10_000;

/** A flooded run's unsolicited messages, answered ones and the rule that took any message; else null. */
export function wsFlood(run: Pick<RunResult, "url" | "config" | "ws" | "requests">) {
  const ws = run.ws;
  if (ws === undefined || !/^wss?:/i.test(run.url)) return null;
  const config = (run.config?.ws ?? {}) as {
    match?: { kind?: unknown; n?: unknown };
    pingIntervalMs?: unknown;
  };
  if (typeof config.pingIntervalMs === "number" && config.pingIntervalMs > 0) return null;
  const kind = config.match?.kind ?? "echo";
  if (kind !== "echo" && kind !== "nth") return null;
  const answered = run.requests;
  if (ws.unsolicited < MIN_FLOOD_MESSAGES || ws.unsolicited < FLOOD_RATIO * answered) return null;
  return {
    unsolicited: ws.unsolicited,
    answered,
    /** The unsolicited messages per answered one (the unsolicited count when none was answered). */
    perAnswer: answered > 0 ? ws.unsolicited / answered : ws.unsolicited,
    /** "echo" or "nth:3": the rule that took any message. */
    rule: kind === "nth" ? `nth:${config.match?.n}` : "echo",
  };
}
