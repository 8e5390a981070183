/**
 * @module
 * The load generator's response parser: the shared HTTP/1.1 framing configured for a user agent, keeping
 * only status, response ends and keep-alive, allocating nothing and holding no bytes between reads. A head
 * past `maxHeadBytes` is a parse error naming the cap.
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
