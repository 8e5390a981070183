/**
 * @module
 * Whether a WebSocket run's answers can be believed under its match rule: an echo or nth rule takes any
 * message as an answer, so a server that floods messages of its own has every send "answered". Flooded
 * when unsolicited messages outnumber answered ones `FLOOD_RATIO` times and number `MIN_FLOOD_MESSAGES`.
 * Pure.
 */
import type { RunResult } from "../schema/results.ts";
import { formatCount } from "../text_format.ts";

/** Unsolicited messages per answered one past which the answers are taken as the flood's. */
const FLOOD_RATIO = 100;
/** Fewer unsolicited messages than this say nothing of a flood. */
const MIN_FLOOD_MESSAGES = 10_000;

/** A flooded run's counts: unsolicited messages, answered ones, and the rule that took any message. */
interface WsFlood {
  unsolicited: number;
  answered: number;
  /** The unsolicited messages per answered one (the unsolicited count when none was answered). */
  perAnswer: number;
  /** "echo" or "nth:3": the rule that took any message. */
  rule: string;
}

/** The flood's counts, or null when the run is none (see the module comment). */
export function wsFlood(run: Pick<RunResult, "url" | "config" | "ws" | "requests">): WsFlood | null {
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
    perAnswer: answered > 0 ? ws.unsolicited / answered : ws.unsolicited,
    rule: kind === "nth" ? `nth:${config.match?.n}` : "echo",
  };
}

/** The label of a flooded run: "flooded: 1,259 unsolicited messages per answer (...)". */
export function wsFloodLabel(flood: WsFlood): string {
  const per = formatCount(flood.perAnswer);
  return `flooded: ${per} unsolicited messages per answer (the ${flood.rule} rule takes any message: ` +
    "--ws-match is probably wrong)";
}
