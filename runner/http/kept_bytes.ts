/**
 * @module
 * The raw bytes of one HTTP/1.1 response, kept for a flow step that captures, checks or keeps cookies
 * (connection.ts `prepareStep`; kept_response.ts reads them). The connection appends each run of bytes
 * the response parser says belong to the response, in one buffer of its own that grows and is reused;
 * keeping only the head stops at the end of the final head (past interim 1xx heads). Every other
 * exchange keeps nothing and never comes here.
 */

export class KeptBytes {
  #bytes = new Uint8Array(0);
  #length = 0;
  /** Where the kept head's end is looked for next (head only), -1 once found. */
  #scan = 0;
  /** Where the head being kept starts (past interim 1xx heads). */
  #head = 0;

  /** Forgets the last response: the next append starts a new one. */
  reset(): void {
    this.#length = this.#scan = this.#head = 0;
  }

  /** The bytes kept of the response; valid until the next `reset`. */
  view(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  /** Appends the response's bytes `buf[from, to)`; with `headOnly` only up to the end of its head. */
  append(buf: Uint8Array, from: number, to: number, headOnly: boolean): void {
    if (headOnly && this.#scan < 0) return;
    const need = this.#length + to - from;
    if (this.#bytes.length < need) {
      const grown = new Uint8Array(Math.max(need, 2 * this.#bytes.length, 4096));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    this.#bytes.set(buf.subarray(from, to), this.#length);
    this.#length = need;
    if (!headOnly) return;
    const kept = this.#bytes;
    for (let k = Math.max(this.#head, this.#scan - 3); k + 3 < need; k++) {
      if (kept[k] === 13 && kept[k + 1] === 10 && kept[k + 2] === 13 && kept[k + 3] === 10) {
        // An interim 1xx head ("HTTP/1.1 1.."): the final head follows it; keep on to its end.
        if (kept[this.#head + 9] === 49) {
          this.#head = k + 4;
          continue;
        }
        this.#scan = -1;
        return;
      }
    }
    this.#scan = need;
  }
}
