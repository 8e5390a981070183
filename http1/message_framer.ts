/**
 * @module
 * HTTP/1.1 message framing (RFC 9112) for the engine's parser and the balancer, any split of the bytes giving
 * the same outcome. Strict where a reader could be steered; tolerant as user agents are unless `verbatim`.
 */
import {
  bodyFraming,
  Framing,
  framingCloses,
  framingRefusal,
  isInterim,
  keepAliveAsked,
} from "./body_framing.ts";
import { BAD_HEAD_LINE, EV_CHUNK_LINE, EV_HEAD, EV_NONE, EV_TRAILERS, HeadLines } from "./head_lines.ts";

export const NEED_MORE = -1;
/** `feed` found bytes that break the framing rules; `error` says which. */
export const PARSE_ERROR = -2;

const CR = 13, LF = 10;

// States. S_LINES: head_lines.ts takes the bytes (a head, a chunk-size line, the trailers), within the cap.
const S_LINES = 0;
const S_BODY = 1;
const S_CHUNK_DATA = 2;
const S_DATA_CR = 3;
const S_DATA_LF = 4;
const S_UNTIL_CLOSE = 5;
const S_DONE = 6;

interface FramerOptions {
  /** Parse requests (the balancer's client side). */
  request?: boolean;
  /** Cap of a head (start line, fields, interim heads), then of each chunk-size line and the trailers. */
  maxHeadBytes: number;
  /** A constant string, built once. */
  headTooLarge?: string;
  /** Heads are forwarded as they are: bare LF, obs-fold and TE with CL or in HTTP/1.0 are errors. */
  verbatim?: boolean;
  /** `feed` also returns at the end of every head, interim ones too. */
  stopAtHeads?: boolean;
}

/** Frames one message after another on one connection; `start()` before each. */
export class MessageFramer {
  /** False when the message closes its connection (asked to, HTTP/1.0, until-close, 101, TE with CL). */
  keepAlive = true;
  framing: Framing = Framing.None;
  contentLength = 0;
  /** Chunk data without its framing; until-close bytes as they come. */
  bodyBytes = 0;
  /** False after an interim head when `stopAtHeads`. */
  done = false;
  /** A constant string: no allocation. */
  error = "";
  readonly #lines: HeadLines;
  readonly #request: boolean;
  readonly #verbatim: boolean;
  readonly #stopAtHeads: boolean;
  readonly #maxHeadBytes: number;
  readonly #headTooLarge: string;
  #state = S_DONE;
  #isHead = false;
  /** Bytes left of the body (Length) or of the current chunk's data. */
  #remaining = 0;
  #headBytes = 0;

  constructor(options: FramerOptions) {
    this.#request = options.request ?? false;
    this.#verbatim = options.verbatim ?? false;
    this.#lines = new HeadLines(this.#request, this.#verbatim);
    this.#stopAtHeads = options.stopAtHeads ?? false;
    this.#maxHeadBytes = options.maxHeadBytes;
    this.#headTooLarge = options.headTooLarge ?? "head too large";
  }

  get status(): number {
    return this.#lines.status;
  }

  get setCookie(): boolean {
    return this.#lines.fields.facts.setCookie;
  }

  get headMethod(): boolean {
    return this.#lines.headMethod;
  }

  get leadingBytes(): number {
    return this.#lines.leadingBytes;
  }

  get targetStart(): number {
    return this.#lines.targetStart;
  }

  get targetEnd(): number {
    return this.#lines.targetEnd;
  }

  /** `isHead`: the response answers HEAD (no body whatever it says). */
  start(isHead = false): void {
    this.#isHead = isHead;
    this.#headBytes = 0;
    this.keepAlive = true;
    this.done = false;
    this.error = "";
    this.bodyBytes = 0;
    this.#startHead();
  }

  /** Finds the end of a chunked body whose first chunk-size line is next (a forwarder's relay). */
  startChunkedBody(): void {
    this.start(false);
    this.#lines.expectChunkLine();
  }

  get started(): boolean {
    return this.#headBytes > 0 || this.#state !== S_LINES || !this.#lines.atStart;
  }

  /** Consumes `buf[from, to)`: the offset past the message (or head), NEED_MORE or PARSE_ERROR. */
  feed(buf: Uint8Array, from: number, to: number): number {
    let i = from;
    while (i < to) {
      const state = this.#state;
      if (state === S_LINES) {
        const room = this.#maxHeadBytes - this.#headBytes;
        const stop = to - i > room ? i + room : to;
        const lines = this.#lines;
        const j = lines.scan(buf, i, stop);
        if (j === BAD_HEAD_LINE) return this.#fail(lines.error);
        this.#headBytes += j - i;
        i = j;
        const event = lines.event;
        if (event === EV_NONE) {
          if (i === stop && stop < to) return this.#fail(this.#headTooLarge);
        } else if (event === EV_HEAD) {
          if (!this.#endHead()) return PARSE_ERROR;
          if (this.done || this.#stopAtHeads) return i;
        } else if (event === EV_TRAILERS) return this.#finish(i);
        else if (event === EV_CHUNK_LINE) this.#endChunkLine();
        continue;
      }
      if (state === S_BODY || state === S_CHUNK_DATA) {
        const take = Math.min(to - i, this.#remaining);
        i += take;
        this.#remaining -= take;
        this.bodyBytes += take;
        if (this.#remaining > 0) continue;
        if (state === S_BODY) return this.#finish(i);
        this.#state = S_DATA_CR;
      } else if (state === S_DATA_CR) {
        if (buf[i++] !== CR) return this.#fail("chunk data not followed by CRLF");
        this.#state = S_DATA_LF;
      } else if (state === S_DATA_LF) {
        if (buf[i++] !== LF) return this.#fail("chunk data not followed by CRLF");
        this.#state = S_LINES;
        this.#lines.expectChunkLine();
      } else if (state === S_UNTIL_CLOSE) {
        this.bodyBytes += to - i;
        return NEED_MORE;
      } else return this.#fail("data after the end of a message");
    }
    return NEED_MORE;
  }

  /** At EOF: true when the message is complete because it is framed by the close. */
  completesAtEof(): boolean {
    if (this.#state !== S_UNTIL_CLOSE) return false;
    this.#state = S_DONE;
    this.done = true;
    return true;
  }

  #startHead(): void {
    this.#state = S_LINES;
    this.#lines.startHead();
    this.framing = Framing.None;
    this.contentLength = 0;
  }

  #finish(i: number): number {
    this.#state = S_DONE;
    this.done = true;
    return i;
  }

  #fail(message: string): number {
    this.error = message;
    return PARSE_ERROR;
  }

  /** A chunk-size line ended: its data follows, or (size 0) the trailers; the cap applies anew to each. */
  #endChunkLine(): void {
    this.#headBytes = 0;
    const size = this.#lines.chunkSize;
    this.#remaining = size;
    if (size > 0) this.#state = S_CHUNK_DATA;
  }

  /** The empty line after a head: an interim head, a refused one, or the framing of the body. */
  #endHead(): boolean {
    const lines = this.#lines;
    const f = lines.fields.facts;
    const status = lines.status;
    if (!this.#request && isInterim(status)) {
      // Interim (100 Continue, 103 Early Hints): the final head follows; the cap runs on.
      this.#startHead();
      lines.status = status;
      return true;
    }
    this.keepAlive = keepAliveAsked(f, lines.http10);
    const refusal = framingRefusal(f, lines.http10, this.#request, this.#verbatim);
    if (refusal !== "") {
      this.error = refusal;
      return false;
    }
    const framing = bodyFraming(f, status, this.#request, this.#isHead);
    if (framingCloses(f, lines.http10, status, framing)) this.keepAlive = false;
    this.framing = framing;
    if (framing === Framing.Chunked) lines.expectChunkLine();
    else if (framing === Framing.UntilClose) this.#state = S_UNTIL_CLOSE;
    else if (framing === Framing.Length && f.contentLength > 0) {
      this.contentLength = this.#remaining = f.contentLength;
      this.#state = S_BODY;
    } else this.#finish(0); // no body, or Content-Length: 0
    return true;
  }
}
