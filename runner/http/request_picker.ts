/**
 * @module
 * The bytes of one exchange: the mix's next request, a flow step's own, or `depth` of the mix's
 * requests back to back in one reused buffer (pipelining, still one write), with which of them are
 * HEAD (their responses have no body whatever their headers say). HOT PATH: nothing is allocated
 * per request; the batch buffer only grows.
 */
import type { EncodedRequest, RequestMix } from "./request.ts";

export class RequestPicker {
  /** 1 where request k of the exchange is HEAD. */
  readonly #heads: Uint8Array;
  #batch = new Uint8Array(0);

  constructor(readonly mix: RequestMix, maxDepth: number) {
    this.#heads = new Uint8Array(maxDepth);
  }

  /** Bytes to write for `depth` requests (`request`, depth 1, instead of the mix's when given). */
  pick(depth: number, request: EncodedRequest | null): Uint8Array {
    if (request !== null) return this.#one(request);
    if (depth === 1) return this.#one(this.mix.requests[this.mix.next()]);
    return this.#many(depth);
  }

  /** Whether request `k` of the exchange picked last is HEAD. */
  isHead(k: number): boolean {
    return this.#heads[k] === 1;
  }

  #one(request: EncodedRequest): Uint8Array {
    this.#heads[0] = request.isHead ? 1 : 0;
    return request.bytes;
  }

  #many(depth: number): Uint8Array {
    const mix = this.mix;
    let length = 0;
    for (let k = 0; k < depth; k++) {
      const request = mix.requests[mix.next()];
      this.#heads[k] = request.isHead ? 1 : 0;
      if (this.#batch.length < length + request.bytes.length) {
        const grown = new Uint8Array(Math.max(2 * this.#batch.length, length + request.bytes.length));
        grown.set(this.#batch.subarray(0, length));
        this.#batch = grown;
      }
      this.#batch.set(request.bytes, length);
      length += request.bytes.length;
    }
    return this.#batch.subarray(0, length);
  }
}
