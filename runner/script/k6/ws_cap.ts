/**
 * @module
 * The cap on one k6/ws message, each way: 16 MiB (the `ws` package takes 100 MiB by default). An incoming
 * one past it is refused at its header, the socket closed with 1009 and counted as `ws-too-big`; an outgoing
 * one is refused at the script's line. k6/ws has no parameter to raise it, so it sits above flows' 1 MiB.
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

export function tooBig(err: Error): boolean {
  return (err as Error & { code?: unknown }).code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH";
}

/** What `on('error')` sees for a message past the cap, counted as `ws-too-big` in session `s`'s run. */
export function tooBigReceived(s: Session | undefined, url: string): string {
  const message = `ws-too-big: a message from ${url} is past ${CAP_TEXT}; the socket is closed (1009)`;
  if (s !== undefined) countSessionError(s, "ws-too-big", message);
  return message;
}
