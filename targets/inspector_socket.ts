/**
 * @module
 * The WebSocket client of an inspector session, since Deno's refuses a message over 64 MiB and a profile
 * comes in one message: text messages up to `maxMessageBytes`, pings answered.
 */
import { writeAll } from "../system/write_all.ts";
import { concatBytes } from "../system/copy_bytes.ts";

/** The largest inspector message read by default (a profile, as JSON text). */
export const MAX_INSPECTOR_MESSAGE_BYTES = 256 * 1024 * 1024;

const OP_CONTINUATION = 0x0, OP_TEXT = 0x1, OP_BINARY = 0x2, OP_CLOSE = 0x8, OP_PING = 0x9, OP_PONG = 0xa;
/** Bytes read per socket read (the buffer grows at once to a frame's announced size). */
const READ_BYTES = 64 * 1024;
const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One WebSocket connection to an inspector: `listen` hands over its messages and why it ended. */
export class InspectorSocket {
  #onMessage: (text: string) => void = () => {};
  #onClose: (reason: string) => void = () => {};
  #open = true;
  #writing: Promise<void> = Promise.resolve();

  /** What was read past the upgrade answer's head. */
  private constructor(
    readonly conn: Deno.Conn,
    readonly maxMessageBytes: number,
    readonly early: Uint8Array,
  ) {}

  /** Each text message goes to `onMessage`, and why the connection ended to `onClose`. */
  listen(onMessage: (text: string) => void, onClose: (reason: string) => void): void {
    this.#onMessage = onMessage;
    this.#onClose = onClose;
    this.#read(this.early).catch((err) =>
      this.#end(`inspector connection failed: ${(err as Error).message}`)
    );
  }

  /** Opens `url` (a `webSocketDebuggerUrl`) within `timeoutMs`. */
  static async connect(url: string, timeoutMs: number, maxMessageBytes: number): Promise<InspectorSocket> {
    const { hostname, port, pathname, search, host } = new URL(url);
    const conn = await Deno.connect({ hostname, port: Number(port), signal: AbortSignal.timeout(timeoutMs) });
    const timer = setTimeout(() => conn.close(), timeoutMs);
    try {
      const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
      await writeAll(
        conn,
        encoder.encode(
          `GET ${pathname}${search} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        ),
      );
      const { head, rest } = await readHead(conn);
      const accept = btoa(String.fromCharCode(
        ...new Uint8Array(await crypto.subtle.digest("SHA-1", encoder.encode(key + GUID))),
      ));
      const accepted = head.split("\r\n").some((line) =>
        line.toLowerCase().startsWith("sec-websocket-accept:") && line.slice(21).trim() === accept
      );
      if (!/^HTTP\/1\.1 101 /.test(head) || !accepted) {
        throw new Error(`${url} did not accept the WebSocket upgrade: ${head.split("\r\n")[0]}`);
      }
      return new InspectorSocket(conn, maxMessageBytes, rest);
    } catch (err) {
      try {
        conn.close();
      } catch { /* closed by the timer */ }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  get open(): boolean {
    return this.#open;
  }

  /** Sends one text message, in order with the others. */
  send(text: string): void {
    this.#write(clientFrame(OP_TEXT, encoder.encode(text)));
  }

  /** Ends the connection without a reason to report. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    try {
      this.conn.close();
    } catch { /* closed already */ }
  }

  #end(reason: string): void {
    if (!this.#open) return;
    this.close();
    this.#onClose(reason);
  }

  async #read(start: Uint8Array): Promise<void> {
    let buf = new Uint8Array(Math.max(READ_BYTES, start.length));
    buf.set(start);
    let have = start.length;
    const parts: Uint8Array[] = [];
    let messageBytes = 0;
    for (;;) {
      let frame = frameAt(buf, have);
      while (frame !== null && frame.end <= have) {
        const { fin, opcode, start, end } = frame;
        if (opcode === OP_CLOSE) return this.#end("inspector connection closed");
        if (opcode === OP_PING) this.#write(clientFrame(OP_PONG, buf.slice(start, end)));
        else if (opcode === OP_TEXT || opcode === OP_BINARY || opcode === OP_CONTINUATION) {
          if (fin && parts.length === 0) this.#onMessage(decoder.decode(buf.subarray(start, end)));
          else {
            parts.push(buf.slice(start, end));
            messageBytes += end - start;
            if (fin) {
              const whole = concatBytes(parts);
              parts.length = messageBytes = 0;
              this.#onMessage(decoder.decode(whole));
            }
          }
        }
        buf.copyWithin(0, end, have);
        have -= end;
        frame = frameAt(buf, have);
      }
      if (frame !== null) {
        if (messageBytes + frame.end - frame.start > this.maxMessageBytes) {
          return this.#end(tooLarge(this.maxMessageBytes));
        }
        if (frame.end > buf.length) buf = grown(buf, have, frame.end);
      }
      if (!this.#open) return;
      if (have === buf.length) buf = grown(buf, have, have + READ_BYTES);
      const n = await this.conn.read(buf.subarray(have));
      if (n === null) return this.#end("inspector connection closed (the process exited?)");
      have += n;
    }
  }

  #write(frame: Uint8Array): void {
    this.#writing = this.#writing.then(() => writeAll(this.conn, frame)).catch(() => {});
  }
}

export function tooLarge(maxMessageBytes: number): string {
  return `the profile is larger than the ${
    maxMessageBytes / 1024 / 1024
  } MiB loadlab reads of one inspector ` +
    `message (inspector connection closed); profile a shorter run`;
}

interface Frame {
  fin: boolean;
  opcode: number;
  /** Where its payload starts and ends in the buffer (the end may be past what was read). */
  start: number;
  end: number;
}

function frameAt(buf: Uint8Array, have: number): Frame | null {
  if (have < 2) return null;
  const fin = (buf[0] & 0x80) !== 0;
  const opcode = buf[0] & 0x0f;
  const masked = (buf[1] & 0x80) !== 0;
  let length = buf[1] & 0x7f;
  let at = 2;
  if (length === 126) {
    if (have < 4) return null;
    length = (buf[2] << 8) | buf[3];
    at = 4;
  } else if (length === 127) {
    if (have < 10) return null;
    length = Number(new DataView(buf.buffer, buf.byteOffset + 2, 8).getBigUint64(0));
    at = 10;
  }
  // A server's frames are not masked (RFC 6455 5.1); one that is is read as if it were not.
  if (masked) at += 4;
  if (have < at) return null;
  return { fin, opcode, start: at, end: at + length };
}

/** A masked client frame (RFC 6455 5.3) carrying `payload`, FIN set. */
function clientFrame(opcode: number, payload: Uint8Array): Uint8Array {
  const lengthBytes = payload.length < 126 ? 0 : payload.length < 65536 ? 2 : 8;
  const frame = new Uint8Array(2 + lengthBytes + 4 + payload.length);
  frame[0] = 0x80 | opcode;
  const view = new DataView(frame.buffer);
  if (lengthBytes === 0) frame[1] = 0x80 | payload.length;
  else if (lengthBytes === 2) (frame[1] = 0x80 | 126, view.setUint16(2, payload.length));
  else (frame[1] = 0x80 | 127, view.setBigUint64(2, BigInt(payload.length)));
  const maskAt = 2 + lengthBytes;
  const mask = crypto.getRandomValues(new Uint8Array(4));
  frame.set(mask, maskAt);
  for (let i = 0; i < payload.length; i++) frame[maskAt + 4 + i] = payload[i] ^ mask[i & 3];
  return frame;
}

async function readHead(conn: Deno.Conn): Promise<{ head: string; rest: Uint8Array }> {
  let got = new Uint8Array(0);
  const chunk = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(chunk);
    if (n === null) throw new Error("the inspector closed the connection during the WebSocket upgrade");
    got = concatBytes([got, chunk.subarray(0, n)]);
    const text = new TextDecoder("latin1").decode(got);
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) return { head: text.slice(0, end), rest: got.slice(end + 4) };
    if (got.length > 16 * 1024) throw new Error("the inspector's WebSocket upgrade answer is over 16 KiB");
  }
}

function grown(buf: Uint8Array, have: number, atLeast: number): Uint8Array<ArrayBuffer> {
  const next = new Uint8Array(Math.max(atLeast, buf.length * 2));
  next.set(buf.subarray(0, have));
  return next;
}
