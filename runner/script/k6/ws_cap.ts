/**
 * @module
 * The cap on one k6/ws message (ws.ts), each way: 16 MiB. The `ws` package that carries k6/ws takes up
 * to 100 MiB by default, so a hostile or broken server could make every session hold 100 MiB a message;
 * an incoming message past the cap is refused at its header before its payload is read (the package's
 * `maxPayload`, also on a compressed message as it inflates), the socket closed with 1009 and the error
 * handed to the script's `on('error')` and counted in the run as `ws-too-big`, as loadlab's own
 * WebSocket flows count theirs. An outgoing one past it is refused at the script's line, never sent. It is
 * not loadlab's flows' 1 MiB: a flow raises that with `maxMessageBytes`, while k6/ws has no parameter to
 * raise it and k6 itself no cap, so scripts that exchange a few MiB still run unchanged.
 */
import type { Session } from "../session.ts";
import { countSessionError } from "../sessions/ws_stats.ts";

/** The largest k6/ws message, each way: its payload (a text message's UTF-8 bytes). */
export const K6_WS_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const CAP_TEXT = `k6/ws's cap of ${K6_WS_MAX_MESSAGE_BYTES / (1024 * 1024)} MiB a message`;

/** Throws, at the script's line, when `payloadBytes` of a message it sends are past the cap. */
export function checkSendSize(what: string, payloadBytes: number): void {
  if (payloadBytes <= K6_WS_MAX_MESSAGE_BYTES) return;
  throw new RangeError(`${what}: a message of ${payloadBytes} bytes is past ${CAP_TEXT}; it is not sent`);
}

/** Whether `err` is the `ws` package's refusal of an incoming message past the cap. */
export function tooBig(err: Error): boolean {
  return (err as Error & { code?: unknown }).code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH";
}

/**
 * What the script's `on('error')` sees for a message past the cap, counted in session `s`'s run as
 * `ws-too-big` (outside a session, in setup or teardown, there is no run to count it in).
 */
export function tooBigReceived(s: Session | undefined, url: string): string {
  const message = `ws-too-big: a message from ${url} is past ${CAP_TEXT}; the socket is closed (1009)`;
  if (s !== undefined) countSessionError(s, "ws-too-big", message);
  return message;
}
