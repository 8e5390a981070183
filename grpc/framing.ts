/**
 * @module
 * gRPC length-prefixed messages (flag, 4-byte length, bytes), shared by engine and targets: `frameMessage`
 * writes one, `MessageReader` scans DATA as it arrives and refuses a message past its cap or a bad flag.
 */

export const MESSAGE_PREFIX_BYTES = 5;
/** The default cap of one message either way (grpc-go's receive default). */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export const READ_OK = 0;
export const READ_TOO_BIG = 1;
/** A flag byte neither 0 (plain) nor 1 (compressed). */
export const READ_BAD_FLAG = 2;
/** A compressed message in an answer that named no `grpc-encoding`. */
export const READ_NO_ENCODING = 3;

/** `payload` with its prefix; `compressed` sets the flag (the payload is compressed already). */
export function frameMessage(payload: Uint8Array, compressed = false): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(MESSAGE_PREFIX_BYTES + payload.length);
  writeMessagePrefix(out, 0, payload.length, compressed);
  out.set(payload, MESSAGE_PREFIX_BYTES);
  return out;
}

export function writeMessagePrefix(out: Uint8Array, at: number, length: number, compressed: boolean): number {
  out[at] = compressed ? 1 : 0;
  out[at + 1] = length >>> 24;
  out[at + 2] = (length >>> 16) & 0xff;
  out[at + 3] = (length >>> 8) & 0xff;
  out[at + 4] = length & 0xff;
  return at + MESSAGE_PREFIX_BYTES;
}

type MessageSink = (payload: Uint8Array, compressed: boolean) => void;

export class MessageReader {
  messages = 0;
  maxBytes: number;
  /** The answer named a `grpc-encoding`. */
  compressedAllowed = false;
  /** The length the last bad or over-cap prefix stated. */
  statedBytes = 0;
  /** The flag byte of the last prefix read. */
  statedFlag = 0;
  /** Gets each whole message's payload, or null: payloads are skipped, never copied. */
  onMessage: MessageSink | null = null;
  readonly #prefix = new Uint8Array(MESSAGE_PREFIX_BYTES);
  #prefixHave = 0;
  /** -1 between messages. */
  #remaining = -1;
  #compressed = false;
  #payload: Uint8Array = EMPTY;
  #payloadHave = 0;

  constructor(maxBytes = DEFAULT_MAX_MESSAGE_BYTES) {
    this.maxBytes = maxBytes;
  }

  reset(): void {
    this.messages = 0;
    this.compressedAllowed = false;
    this.#prefixHave = 0;
    this.#remaining = -1;
  }

  /** A message began and has not ended: a stream ending now cut it short. */
  get midMessage(): boolean {
    return this.#prefixHave > 0 || this.#remaining >= 0;
  }

  /** READ_OK, or what was wrong (the stream is then done: feed no more). */
  feed(buf: Uint8Array, from: number, to: number): number {
    let p = from;
    while (p < to) {
      if (this.#remaining < 0) {
        const take = Math.min(MESSAGE_PREFIX_BYTES - this.#prefixHave, to - p);
        for (let k = 0; k < take; k++) this.#prefix[this.#prefixHave++] = buf[p++];
        if (this.#prefixHave < MESSAGE_PREFIX_BYTES) return READ_OK;
        const problem = this.#begin();
        if (problem !== READ_OK) return problem;
        continue;
      }
      const take = Math.min(this.#remaining, to - p);
      if (this.onMessage !== null) this.#payload.set(buf.subarray(p, p + take), this.#payloadHave);
      this.#payloadHave += take;
      this.#remaining -= take;
      p += take;
      if (this.#remaining === 0) this.#ended();
    }
    return READ_OK;
  }

  /** A whole prefix came: checks, then the payload (an empty one ends at once). */
  #begin(): number {
    const pre = this.#prefix;
    const flag = pre[0];
    const length = ((pre[1] << 24) >>> 0) + (pre[2] << 16) + (pre[3] << 8) + pre[4];
    this.#prefixHave = 0;
    this.statedBytes = length;
    this.statedFlag = flag;
    if (flag > 1) return READ_BAD_FLAG;
    if (flag === 1 && !this.compressedAllowed) return READ_NO_ENCODING;
    if (length > this.maxBytes) return READ_TOO_BIG;
    this.#compressed = flag === 1;
    this.#remaining = length;
    this.#payloadHave = 0;
    if (this.onMessage !== null && this.#payload.length < length) {
      this.#payload = new Uint8Array(Math.max(length, this.#payload.length * 2, 256));
    }
    if (length === 0) this.#ended();
    return READ_OK;
  }

  #ended(): void {
    this.#remaining = -1;
    this.messages++;
    this.onMessage?.(this.#payload.slice(0, this.#payloadHave), this.#compressed);
  }
}

const EMPTY = new Uint8Array(0);
