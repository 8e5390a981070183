/**
 * @module
 * Client WebSocket frames (RFC 6455 5.2/5.3), built once: each send writes a fresh key and XORs the
 * payload a 32-bit word at a time in place. With permessage-deflate the template compresses once.
 */
import { MAX_CONTROL_PAYLOAD_BYTES, OP_CLOSE, OP_PING, OP_PONG } from "./opcodes.ts";
import { deflateMessage } from "./deflate.ts";

const POOL_WORDS = 1024;

/** Random mask keys from a pool refilled by `crypto.getRandomValues` when spent. */
export class MaskKeys {
  readonly #pool = new Uint32Array(POOL_WORDS);
  #next = POOL_WORDS;

  /** A fresh key as a 32-bit word (native order); never 0. */
  next(): number {
    if (this.#next === POOL_WORDS) {
      crypto.getRandomValues(this.#pool);
      this.#next = 0;
    }
    return this.#pool[this.#next++] || 0x5a5a5a5a;
  }
}

function clientHeaderBytes(length: number): number {
  return (length < 126 ? 2 : length < 65536 ? 4 : 10) + 4;
}

/** Writes the header of a final, masked frame (key slot left for the caller); returns its length. */
function writeHeader(frame: Uint8Array, opcode: number, length: number, fin: boolean): number {
  frame[0] = (fin ? 0x80 : 0) | opcode;
  if (length < 126) {
    frame[1] = 0x80 | length;
    return 6;
  }
  if (length < 65536) {
    frame[1] = 0x80 | 126;
    frame[2] = length >>> 8;
    frame[3] = length & 0xff;
    return 8;
  }
  frame[1] = 0x80 | 127;
  new DataView(frame.buffer, frame.byteOffset).setBigUint64(2, BigInt(length));
  return 14;
}

/** One message, possibly in fragments, built once; `mask` re-keys and re-masks its frames in place. */
export class MessageTemplate {
  /** The frame(s) to write, masked for the current send. */
  readonly bytes: Uint8Array;
  /** Before compression. */
  readonly payloadBytes: number;
  /** Where each frame starts in the aligned buffer, its key slot, its payload length. */
  readonly #starts: number[] = [];
  readonly #keyAt: number[] = [];
  readonly #lengths: number[] = [];
  readonly #all: Uint8Array;
  readonly #words: Uint32Array;
  readonly #plain: Uint32Array;

  /** `fragmentBytes` > 0 cuts the (compressed) payload into frames of at most that many bytes. */
  constructor(opcode: number, message: Uint8Array, fragmentBytes = 0, deflate = false) {
    const payload = deflate ? deflateMessage(message) : message;
    const pieces = piecesOf(payload.length, fragmentBytes);
    // Each frame padded so its key slot and payload start 4-aligned.
    let total = 0;
    for (const length of pieces) {
      const header = clientHeaderBytes(length);
      const start = total + ((4 - (header % 4)) % 4);
      this.#starts.push(start);
      this.#keyAt.push(start + header - 4);
      this.#lengths.push(length);
      total = start + header + length + ((4 - (length % 4)) % 4);
    }
    const buffer = new ArrayBuffer(total);
    this.#all = new Uint8Array(buffer);
    this.#words = new Uint32Array(buffer);
    const plain = new ArrayBuffer(total);
    this.#plain = new Uint32Array(plain);
    let at = 0;
    for (let k = 0; k < pieces.length; k++) {
      const last = k === pieces.length - 1;
      writeHeader(this.#all.subarray(this.#starts[k]), k === 0 ? opcode : 0, pieces[k], last);
      new Uint8Array(plain).set(payload.subarray(at, at + pieces[k]), this.#keyAt[k] + 4);
      at += pieces[k];
    }
    // RFC 7692 6.1: RSV1 marks the message compressed, on its first frame only.
    if (deflate) this.#all[this.#starts[0]] |= 0x40;
    this.payloadBytes = message.length;
    const wire = pieces.reduce((sum, n) => sum + clientHeaderBytes(n) + n, 0);
    // One frame is written from the aligned buffer; several are gathered back to back after masking.
    this.bytes = pieces.length === 1
      ? this.#all.subarray(this.#starts[0], this.#starts[0] + wire)
      : new Uint8Array(wire);
  }

  /** Masks every frame with a fresh key; `bytes` is then ready to write. */
  mask(keys: MaskKeys): Uint8Array {
    const words = this.#words;
    const plain = this.#plain;
    const frames = this.#keyAt.length;
    for (let k = 0; k < frames; k++) {
      const keyWord = this.#keyAt[k] >> 2;
      const key = keys.next();
      words[keyWord] = key;
      // Whole words, the last one's padding included (never written out).
      const end = keyWord + 1 + ((this.#lengths[k] + 3) >> 2);
      for (let w = keyWord + 1; w < end; w++) words[w] = plain[w] ^ key;
    }
    if (frames > 1) this.#gather();
    return this.bytes;
  }

  #gather(): void {
    let out = 0;
    for (let k = 0; k < this.#starts.length; k++) {
      const start = this.#starts[k];
      const length = this.#keyAt[k] + 4 - start + this.#lengths[k];
      this.bytes.set(this.#all.subarray(start, start + length), out);
      out += length;
    }
  }
}

/** Payload lengths of a message of `length` cut at `fragmentBytes` (0: one frame). */
function piecesOf(length: number, fragmentBytes: number): number[] {
  if (fragmentBytes <= 0 || length <= fragmentBytes) return [length];
  const pieces: number[] = [];
  for (let at = 0; at < length; at += fragmentBytes) pieces.push(Math.min(fragmentBytes, length - at));
  return pieces;
}

/** A masked control frame, payload cut to 125 bytes: a one-frame template, masked once. */
function controlFrame(opcode: number, payload: Uint8Array, keys: MaskKeys): Uint8Array {
  return new MessageTemplate(opcode, payload.subarray(0, MAX_CONTROL_PAYLOAD_BYTES)).mask(keys);
}

/** A close frame with `code` and no reason; `code` 0 sends an empty close. */
export function closeFrame(code: number, keys: MaskKeys): Uint8Array {
  const payload = code === 0 ? new Uint8Array(0) : Uint8Array.of(code >>> 8, code & 0xff);
  return controlFrame(OP_CLOSE, payload, keys);
}

export const pingFrame = (payload: Uint8Array, keys: MaskKeys) => controlFrame(OP_PING, payload, keys);
export const pongFrame = (payload: Uint8Array, keys: MaskKeys) => controlFrame(OP_PONG, payload, keys);
