/**
 * @module
 * The WebSocket client of an inspector session, since Deno's refuses a message over 64 MiB and a profile
 * comes in one message: the load engine's handshake and frame codec (ws/) over a plain connection, text
 * messages up to `maxMessageBytes`, pings answered.
 */
import { writeAll } from "../system/write_all.ts";
import { handshakeRequest, newKey } from "../ws/handshake.ts";
import { readHandshake } from "../ws/handshake_answer.ts";
import { FrameParser } from "../ws/frame_parser.ts";
import { MaskKeys, MessageTemplate, pongFrame } from "../ws/frame_encoder.ts";
import { OP_TEXT } from "../ws/opcodes.ts";

/** The largest inspector message read by default (a profile, as JSON text). */
export const MAX_INSPECTOR_MESSAGE_BYTES = 256 * 1024 * 1024;

/** Bytes read per socket read. */
const READ_BYTES = 64 * 1024;
/** One more than readHandshake takes of an answer's head, so a longer one is its failure. */
const HANDSHAKE_BYTES = 16 * 1024 + 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One WebSocket connection to an inspector: `listen` hands over its messages and why it ended. */
export class InspectorSocket {
  #onMessage: (text: string) => void = () => {};
  #onClose: (reason: string) => void = () => {};
  #open = true;
  #writing: Promise<void> = Promise.resolve();
  readonly #keys = new MaskKeys();

  /** `early`: what was read past the upgrade answer's head. */
  private constructor(
    readonly conn: Deno.Conn,
    readonly maxMessageBytes: number,
    readonly early: Uint8Array,
  ) {}

  /** Each text message goes to `onMessage`, and why the connection ended to `onClose`. */
  listen(onMessage: (text: string) => void, onClose: (reason: string) => void): void {
    this.#onMessage = onMessage;
    this.#onClose = onClose;
    this.#read().catch((err) => this.#end(`inspector connection failed: ${(err as Error).message}`));
  }

  /** Opens `url` (a `webSocketDebuggerUrl`) within `timeoutMs`. */
  static async connect(url: string, timeoutMs: number, maxMessageBytes: number): Promise<InspectorSocket> {
    const { hostname, port } = new URL(url);
    const conn = await Deno.connect({ hostname, port: Number(port), signal: AbortSignal.timeout(timeoutMs) });
    const timer = setTimeout(() => conn.close(), timeoutMs);
    try {
      const key = newKey();
      await writeAll(conn, handshakeRequest(new URL(url), key));
      const buf = new Uint8Array(HANDSHAKE_BYTES);
      for (let have = 0;;) {
        const n = await conn.read(buf.subarray(have));
        if (n === null) throw new Error("the inspector closed the connection during the WebSocket upgrade");
        const answer = readHandshake(buf, have + n, key, [], have);
        have += n;
        if (answer.kind === "ok") {
          return new InspectorSocket(conn, maxMessageBytes, buf.slice(answer.headBytes, have));
        }
        if (answer.kind === "failed") {
          throw new Error(`${url} did not accept the WebSocket upgrade: ${answer.message}`);
        }
      }
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
    this.#write(new MessageTemplate(OP_TEXT, encoder.encode(text)).mask(this.#keys));
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

  async #read(): Promise<void> {
    const parser = new FrameParser({
      onMessage: (_text, buf, start, end) => this.#onMessage(decoder.decode(buf.subarray(start, end))),
      onPing: (buf, start, end) => this.#write(pongFrame(buf.subarray(start, end), this.#keys)),
      onPong: () => {},
      onClose: () => {},
    }, this.maxMessageBytes);
    const chunk = new Uint8Array(READ_BYTES);
    let [buf, have] = [this.early, this.early.length];
    while (this.#open) {
      if (!parser.feed(buf, 0, have)) {
        const tooBig = parser.fault === "too-big";
        return this.#end(tooBig ? tooLarge(this.maxMessageBytes) : `inspector sent ${parser.faultMessage}`);
      }
      if (parser.closed) return this.#end("inspector connection closed");
      const n = await this.conn.read(chunk);
      if (n === null) return this.#end("inspector connection closed (the process exited?)");
      [buf, have] = [chunk, n];
    }
  }

  #write(frame: Uint8Array): void {
    this.#writing = this.#writing.then(() => writeAll(this.conn, frame)).catch(() => {});
  }
}

function tooLarge(maxMessageBytes: number): string {
  return `the profile is larger than the ${
    maxMessageBytes / 1024 / 1024
  } MiB loadlab reads of one inspector ` +
    `message (inspector connection closed); profile a shorter run`;
}
