/**
 * @module
 * The load generator's response parser: the shared HTTP/1.1 framing (http1/message_framer.ts, the same
 * rule book the balancer forwards by) configured for a user agent. It keeps only the facts the generator
 * needs (status, where each response ends, keep-alive), allocates nothing per response and holds no bytes
 * between reads, so any split of the stream gives the same outcome. The head (status line, fields,
 * interim 1xx heads; then each chunk-size line and the trailer section) may take at most `maxHeadBytes`,
 * so a 1 MiB header line costs nothing but a parse error naming the cap.
 */
import { MessageFramer } from "../../../http1/message_framer.ts";

/** Default cap of a response head (nginx and Node allow 8-16 KiB; Go's client allows 1 MiB). */
export const DEFAULT_MAX_HEADER_BYTES = 64 * 1024;

/** The cap's message, made once per cap: every connection of a run shares the one string. */
const headTooLarge = new Map<number, string>();

/** Parses one response after another on one connection; call `start(isHead)` before each. */
export class ResponseParser extends MessageFramer {
  constructor(maxHeadBytes = DEFAULT_MAX_HEADER_BYTES) {
    let message = headTooLarge.get(maxHeadBytes);
    if (message === undefined) {
      message = `response head larger than ${maxHeadBytes} bytes (--max-header-bytes)`;
      headTooLarge.set(maxHeadBytes, message);
    }
    super({ maxHeadBytes, headTooLarge: message });
  }
}
