/**
 * @module
 * What an HTTP/2 stream keeps of its response for a flow step that captures, checks or keeps cookies.
 */
import { isInterim } from "../../../http1/body_framing.ts";
import type { StepResponse } from "../kept_response.ts";
import { DEFAULT_KEPT_BYTES, KeptBytes } from "../kept_bytes.ts";
import type { FieldBytesSink } from "../../../http2/hpack/field_rules.ts";
import { octetString } from "../../../system/large_arrays.ts";

const decoder = new TextDecoder();

/** A value the decoder read as Latin-1 octets, as UTF-8 text (as the HTTP/1.1 kept response reads it). */
function utf8(octets: string): string {
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(octets)) return octets;
  return decoder.decode(Uint8Array.from(octets, (c) => c.charCodeAt(0)));
}

export class H2KeptResponse implements StepResponse {
  status = 0;
  keepBody = false;
  /** The final head was decoded: later blocks (trailers) add nothing. */
  headDone = false;
  /** Names (lower case, as HTTP/2 sends them) and values of the final head, in order. */
  readonly #fields: string[] = [];
  readonly #body = new KeptBytes();
  #text: string | null = null;
  /** The decoder's callback, made once per slot (no closure per response). */
  readonly onField = (name: string, value: string): void => {
    this.#fields.push(name, value);
  };
  /** Where `teeTo` also sends the head's fields (a stream's judge of its answer: gRPC's status). */
  #also: FieldBytesSink | null = null;
  readonly #tee: FieldBytesSink = {
    fieldBytes: (name, nameOff, nameLen, value, valueOff, valueLen) => {
      this.#also!.fieldBytes(name, nameOff, nameLen, value, valueOff, valueLen);
      this.#fields.push(octetString(name, nameOff, nameLen), octetString(value, valueOff, valueLen));
    },
  };

  /** The decoder's sink for a head both kept here and judged by `also` (a gRPC answer). */
  teeTo(also: FieldBytesSink): FieldBytesSink {
    this.#also = also;
    return this.#tee;
  }

  /** Forgets the last response; `keepBody`: whether the next one's DATA is kept, at most `limitBytes`. */
  reset(keepBody: boolean, limitBytes = DEFAULT_KEPT_BYTES): void {
    this.status = 0;
    this.keepBody = keepBody;
    this.headDone = false;
    this.#fields.length = 0;
    this.#body.reset(limitBytes);
    this.#text = null;
  }

  /** A head was decoded with `status`: an interim (1xx) one is dropped, the final one kept. */
  headEnded(status: number): void {
    if (status !== 0 && !isInterim(status)) {
      this.headDone = true;
      this.status = status;
    } else this.#fields.length = 0;
  }

  /** A DATA frame's payload `buf[from, to)`; false when past the bytes kept (`limitBytes`). */
  data(buf: Uint8Array, from: number, to: number): boolean {
    return this.#body.append(buf, from, to, false);
  }

  get limitBytes(): number {
    return this.#body.limitBytes;
  }

  headers(name: string): string[] {
    const lower = name.toLowerCase();
    const values: string[] = [];
    for (let k = 0; k < this.#fields.length; k += 2) {
      if (this.#fields[k] === lower) values.push(utf8(this.#fields[k + 1]));
    }
    return values;
  }

  /** A copy of the response that outlives the slot's next step: status, head fields in turn, body. */
  snapshot(): { status: number; fields: string[]; body: Uint8Array } {
    const fields = this.#fields.map((f, k) => k % 2 === 0 ? f : utf8(f));
    return { status: this.status, fields, body: this.#body.view().slice() };
  }

  get body(): string {
    this.#text ??= decoder.decode(this.#body.view());
    return this.#text;
  }
}
