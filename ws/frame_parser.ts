/**
 * @module
 * The client's reader of server WebSocket frames (RFC 6455 5.2): whole messages handed to a `FrameSink` as
 * views of the read buffer. Anything a server is forbidden is a fault that stops the parser.
 */
import {
  CLOSE_NO_STATUS,
  closeFrameFault,
  DEFAULT_MAX_MESSAGE_BYTES,
  MAX_CONTROL_PAYLOAD_BYTES,
  OP_BINARY,
  OP_CLOSE,
  OP_CONTINUATION,
  OP_PING,
  OP_PONG,
  OP_TEXT,
  UTF8_ACCEPT,
  utf8Step,
} from "./opcodes.ts";
import { inflateMessage } from "./deflate.ts";
import { BufferBudget } from "./buffer_budget.ts";

/** Receives what the parser found; views are valid only during the call. */
export interface FrameSink {
  /** Text is already checked as UTF-8. */
  onMessage(text: boolean, buf: Uint8Array, start: number, end: number): void;
  onPing(buf: Uint8Array, start: number, end: number): void;
  onPong(buf: Uint8Array, start: number, end: number): void;
  /** Code 1005 when the server sent none. */
  onClose(code: number, buf: Uint8Array, start: number, end: number): void;
}

export type FrameFault = "protocol" | "too-big" | "bad-utf8";

/** A gathered message buffer bigger than this is dropped once its message was handed over. */
const KEPT_BUFFER_BYTES = 64 * 1024;
const FIRST_BUFFER_BYTES = 4 * 1024;
const HEADER = 0;
const PAYLOAD = 1;

/** Header length from the second byte (server frames carry no key). */
function headerBytes(b1: number): number {
  const len7 = b1 & 0x7f;
  return len7 < 126 ? 2 : len7 === 126 ? 4 : 10;
}

export class FrameParser {
  fault: FrameFault | null = null;
  /** What follows the server's close frame is not read. */
  closed = false;
  faultMessage = "";
  #state = HEADER;
  /** Made the first time a header is cut across reads. */
  #head: Uint8Array | null = null;
  #headLen = 0;
  #opcode = 0;
  #fin = false;
  #remaining = 0;
  /** The data message in progress: its opcode (0 none), bytes gathered, UTF-8 state. */
  #msgOpcode = 0;
  #msgLen = 0;
  #msgFrames = 0;
  readonly #maxFrames: number;
  #msg: Uint8Array | null = null;
  #utf8 = UTF8_ACCEPT;
  /** RSV1 (permessage-deflate): gathered whole, then inflated. */
  #compressed = false;
  /** The cap plus deflate's 5 bytes per 64 KiB stored block, so a message within the cap always fits. */
  readonly #compressedCap: number;
  /** Made the first time one is cut (a crowd of parsers holds none). */
  #ctl: Uint8Array | null = null;
  #ctlLen = 0;

  /** permessage-deflate was agreed, so RSV1 may mark a message compressed. */
  constructor(
    readonly sink: FrameSink,
    readonly maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
    public deflate = false,
    readonly budget = new BufferBudget(Infinity),
  ) {
    this.#compressedCap = maxMessageBytes + (maxMessageBytes >> 13) + 16;
    // Frames one message may take: 1 KiB fragments filling the cap, at least 1,024 (as h2 caps CONTINUATION).
    this.#maxFrames = Math.max(1_024, Math.ceil(maxMessageBytes / 1_024));
  }

  release(): void {
    if (this.#msg !== null) this.budget.give(this.#msg.length);
    this.#msg = null;
  }

  /** Parses buf[from, to); false once a fault stopped it. */
  feed(buf: Uint8Array, from: number, to: number): boolean {
    if (this.fault !== null) return false;
    let i = from;
    while (i < to && !this.closed) {
      if (this.#state === HEADER) {
        if (this.#headLen === 0 && to - i >= 2) {
          const need = headerBytes(buf[i + 1]);
          if (to - i >= need) {
            i += need;
            if (!this.#header(buf, i - need)) return false;
            continue;
          }
        }
        const head = this.#head ??= new Uint8Array(10);
        while (i < to && (this.#headLen < 2 || this.#headLen < headerBytes(head[1]))) {
          head[this.#headLen++] = buf[i++];
        }
        if (this.#headLen < 2 || this.#headLen < headerBytes(head[1])) return true;
        this.#headLen = 0;
        if (!this.#header(head, 0)) return false;
        continue;
      }
      const take = Math.min(to - i, this.#remaining);
      if (!(this.#opcode >= OP_CLOSE ? this.#control(buf, i, take) : this.#data(buf, i, take))) return false;
      i += take;
    }
    return true;
  }

  #header(h: Uint8Array, at: number): boolean {
    const b0 = h[at], b1 = h[at + 1];
    const opcode = b0 & 0x0f;
    if ((b0 & 0x70) !== 0 && !this.#rsv1Allowed(b0, opcode)) return false;
    if ((b1 & 0x80) !== 0) return this.#fail("protocol", "masked frame from the server");
    let length = b1 & 0x7f;
    if (length === 126) {
      length = (h[at + 2] << 8) | h[at + 3];
      if (length < 126) return this.#fail("protocol", "frame length not in its shortest form");
    } else if (length === 127) {
      const high = ((h[at + 2] << 24) | (h[at + 3] << 16) | (h[at + 4] << 8) | h[at + 5]) >>> 0;
      if (high >= 0x80000000) return this.#fail("protocol", "64-bit frame length with its top bit set");
      length = high * 2 ** 32 +
        (((h[at + 6] << 24) | (h[at + 7] << 16) | (h[at + 8] << 8) | h[at + 9]) >>> 0);
      if (length < 65536) return this.#fail("protocol", "frame length not in its shortest form");
    }
    this.#opcode = opcode;
    this.#fin = (b0 & 0x80) !== 0;
    this.#remaining = length;
    this.#state = PAYLOAD;
    if (opcode >= OP_CLOSE) {
      if (opcode > OP_PONG) return this.#fail("protocol", "reserved control opcode");
      if (!this.#fin) return this.#fail("protocol", "fragmented control frame");
      if (length > MAX_CONTROL_PAYLOAD_BYTES) return this.#fail("protocol", "control frame over 125 bytes");
      this.#ctlLen = 0;
      return length === 0 ? this.#control(h, at, 0) : true;
    }
    if (opcode > OP_BINARY) return this.#fail("protocol", "reserved data opcode");
    if (opcode === OP_CONTINUATION && this.#msgOpcode === 0) {
      return this.#fail("protocol", "continuation frame with no message in progress");
    }
    if (opcode !== OP_CONTINUATION) {
      if (this.#msgOpcode !== 0) return this.#fail("protocol", "new message inside a fragmented one");
      this.#msgOpcode = opcode;
      this.#msgFrames = 1;
      this.#utf8 = UTF8_ACCEPT;
      this.#compressed = (b0 & 0x40) !== 0;
    } else if (++this.#msgFrames > this.#maxFrames) {
      return this.#fail("protocol", `more than ${this.#maxFrames} frames in one message (a fragment flood)`);
    }
    if (this.#msgLen + length > (this.#compressed ? this.#compressedCap : this.maxMessageBytes)) {
      return this.#fail("too-big", `message over the ${this.maxMessageBytes}-byte cap`);
    }
    return length === 0 ? this.#data(h, at, 0) : true;
  }

  #data(buf: Uint8Array, i: number, take: number): boolean {
    const text = this.#msgOpcode === OP_TEXT;
    this.#remaining -= take;
    if (this.#msgLen === 0 && this.#remaining === 0 && this.#fin) {
      this.#state = HEADER;
      this.#msgOpcode = 0;
      if (this.#compressed) return this.#inflated(text, buf, i, i + take);
      if (text && utf8Step(UTF8_ACCEPT, buf, i, i + take) !== UTF8_ACCEPT) return this.#badText();
      this.sink.onMessage(text, buf, i, i + take);
      return true;
    }
    const msg = this.#room(take);
    if (msg === null) return this.#fail("too-big", this.budget.refusal(this.#msgLen + take));
    msg.set(buf.subarray(i, i + take), this.#msgLen);
    if (text && !this.#compressed) {
      this.#utf8 = utf8Step(this.#utf8, msg, this.#msgLen, this.#msgLen + take);
      if (this.#utf8 < 0) return this.#badText();
    }
    this.#msgLen += take;
    if (this.#remaining !== 0) return true;
    this.#state = HEADER;
    if (!this.#fin) return true;
    const length = this.#msgLen;
    this.#msgLen = 0;
    this.#msgOpcode = 0;
    if (msg.length > KEPT_BUFFER_BYTES) this.release();
    if (this.#compressed) return this.#inflated(text, msg, 0, length);
    if (text && this.#utf8 !== UTF8_ACCEPT) return this.#badText();
    this.sink.onMessage(text, msg, 0, length);
    return true;
  }

  /** Only RSV1, only with permessage-deflate, only on a data message's first frame (RFC 7692 6.1). */
  #rsv1Allowed(b0: number, opcode: number): boolean {
    if (!this.deflate) return this.#fail("protocol", "reserved bits set with no extension agreed");
    if ((b0 & 0x30) !== 0) return this.#fail("protocol", "RSV2 or RSV3 set, which no agreed extension uses");
    if (opcode !== OP_CONTINUATION && opcode < OP_CLOSE) return true;
    return this.#fail(
      "protocol",
      `RSV1 set on a ${opcode === OP_CONTINUATION ? "continuation" : "control"} frame`,
    );
  }

  /** A whole compressed message: inflated within the cap, then handed over. */
  #inflated(text: boolean, buf: Uint8Array, start: number, end: number): boolean {
    const out = inflateMessage(buf, start, end, this.maxMessageBytes);
    if (out === "too-big") {
      return this.#fail("too-big", `message inflates past the ${this.maxMessageBytes}-byte cap`);
    }
    if (out === "protocol") return this.#fail("protocol", "compressed message does not inflate");
    if (text && utf8Step(UTF8_ACCEPT, out, 0, out.length) !== UTF8_ACCEPT) return this.#badText();
    this.sink.onMessage(text, out, 0, out.length);
    return true;
  }

  /** The message buffer with room for `more` bytes, or null past the worker's budget. */
  #room(more: number): Uint8Array | null {
    const need = this.#msgLen + more;
    const msg = this.#msg;
    if (msg !== null && msg.length >= need) return msg;
    let size = msg === null ? FIRST_BUFFER_BYTES : msg.length * 2;
    while (size < need) size *= 2;
    size = Math.min(size, Math.max(need, this.maxMessageBytes));
    if (!this.budget.take(size - (msg === null ? 0 : msg.length))) return null;
    const grown = new Uint8Array(size);
    if (msg !== null) grown.set(msg.subarray(0, this.#msgLen));
    this.#msg = grown;
    return grown;
  }

  #control(buf: Uint8Array, i: number, take: number): boolean {
    this.#remaining -= take;
    let from = i, to = i + take;
    if (this.#ctlLen !== 0 || this.#remaining !== 0) {
      const ctl = this.#ctl ??= new Uint8Array(MAX_CONTROL_PAYLOAD_BYTES);
      ctl.set(buf.subarray(i, i + take), this.#ctlLen);
      this.#ctlLen += take;
      if (this.#remaining !== 0) return true;
      buf = ctl;
      from = 0;
      to = this.#ctlLen;
    }
    this.#state = HEADER;
    if (this.#opcode === OP_PING) this.sink.onPing(buf, from, to);
    else if (this.#opcode === OP_PONG) this.sink.onPong(buf, from, to);
    else return this.#close(buf, from, to);
    return true;
  }

  #close(buf: Uint8Array, from: number, to: number): boolean {
    const fault = closeFrameFault(buf, from, to);
    if (fault !== null) return this.#fail(fault[0], fault[1]);
    this.closed = true;
    if (to === from) this.sink.onClose(CLOSE_NO_STATUS, buf, from, from);
    else this.sink.onClose((buf[from] << 8) | buf[from + 1], buf, from + 2, to);
    return true;
  }

  #badText(): boolean {
    return this.#fail("bad-utf8", "text message is not UTF-8");
  }

  #fail(kind: FrameFault, message: string): boolean {
    this.fault = kind;
    this.faultMessage = message;
    return false;
  }
}
