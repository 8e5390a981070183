/**
 * @module
 * The generator's response parser: the shared HTTP/1.1 framing as a user agent, keeping only status, ends
 * and keep-alive, no allocation, no bytes held between reads; a head past `maxHeadBytes` fails, naming it.
 */
import { MessageFramer } from "../../../http1/message_framer.ts";

/** Default cap of a response head (nginx and Node allow 8-16 KiB; Go's client allows 1 MiB). */
export const DEFAULT_MAX_HEADER_BYTES = 64 * 1024;

/** The cap's message, made once per cap: every connection of a run shares the one string. */
const headTooLarge = new Map<number, string>();

/** Parses one response after another on one connection; call `start(isHead)` before each. */
export class ResponseParser extends MessageFramer {
  constructor(maxHeadBytes = DEFAULT_MAX_HEADER_BYTES) {
    const message = headTooLarge.get(maxHeadBytes) ??
      `response head larger than ${maxHeadBytes} bytes (--max-header-bytes)`;
    headTooLarge.set(maxHeadBytes, message);
    super({ maxHeadBytes, headTooLarge: message });
  }
}
