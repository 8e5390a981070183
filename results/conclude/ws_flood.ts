/**
 * @module
 * Whether a WebSocket run's answers can be believed under its match rule. The echo rule (`--ws-match echo`,
 * the default) and `nth:N` take whatever message comes next as a send's answer, so a server that floods
 * messages of its own and never answers still has every send "answered" by an unrelated one: the run
 * reads `ok` with round trips that time nothing. The statement, with its preconditions:
 *
 * - the run is a WebSocket load whose rule takes any message (echo or nth; a `json:` rule checks what it
 *   takes, and hold's pongs are no messages);
 * - its unsolicited messages outnumber its answered ones `FLOOD_RATIO` times or more (two orders of
 *   magnitude: a busy broadcast room gives each member as many messages as it has members, a flood
 *   millions), and number at least `MIN_FLOOD_MESSAGES` (a short run's handful says nothing).
 *
 * Null otherwise. Pure: numbers of the results file in, a statement out.
 */
import type { RunResult } from "../schema/results.ts";
import { formatCount } from "../text_format.ts";

/** Unsolicited messages per answered one past which the answers are taken as the flood's. */
export const FLOOD_RATIO = 100;
/** Fewer unsolicited messages than this say nothing of a flood. */
export const MIN_FLOOD_MESSAGES = 10_000;

/** A flooded run's counts: unsolicited messages, answered ones, and the rule that took any message. */
export interface WsFlood {
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

/**
 * The verdict's label of a flooded run: "flooded: 1,259 unsolicited messages per answer (the echo rule
 * takes any message: --ws-match is probably wrong)".
 */
export function wsFloodLabel(flood: WsFlood): string {
  const per = formatCount(flood.perAnswer);
  return `flooded: ${per} unsolicited messages per answer (the ${flood.rule} rule takes any message: ` +
    "--ws-match is probably wrong)";
}
