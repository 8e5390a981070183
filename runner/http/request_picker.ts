/**
 * @module
 * The bytes of one exchange: the mix's next request, a flow step's own, or `depth` of the mix's
 * requests back to back in one reused buffer (pipelining, still one write), with which of them are
 * HEAD (their responses have no body whatever their headers say). A templated request (template.ts) is
 * filled into this connection's own buffer with the session's values (a flow step), or a data row
 * taken for it (the mix), and a Cookie line when the session has one; a value that may not go where
 * its placeholder is (template.ts) leaves nothing to send and `refused` set. HOT PATH: nothing is
 * allocated per request; the batch buffer only grows.
 */
import type { EncodedRequest, RequestMix } from "./request.ts";
import { TemplateWriter } from "./template.ts";

/** Rows of a data source, one per templated request of the mix (runner/load/feeder.ts). */
export interface RowSource {
  /** The next row's values, or null when none is left (the request is then not sent). */
  next(): Uint8Array[] | null;
}

const NO_VALUES: ReadonlyArray<Uint8Array> = [];

export class RequestPicker {
  /** 1 where request k of the exchange is HEAD. */
  readonly #heads: Uint8Array;
  /** The endpoint index of request k of the exchange (runner/endpoint_table.ts), fixed when picked. */
  readonly #endpoints: Uint16Array;
  #batch = new Uint8Array(0);
  readonly #writer = new TemplateWriter();
  /** The session's values by index (a flow step's placeholders); set by the session before a step. */
  values: ReadonlyArray<Uint8Array> = NO_VALUES;
  /** A `Cookie: ...` line (CRLF-ended) the session's jar adds to the next step, or null. */
  extraHead: Uint8Array | null = null;
  /** Why the last `pick` returned null for a value it refused (the count message), else "". */
  refused = "";

  constructor(readonly mix: RequestMix, maxDepth: number, readonly rows: RowSource | null = null) {
    this.#heads = new Uint8Array(maxDepth);
    this.#endpoints = new Uint16Array(maxDepth);
  }

  /**
   * Bytes to write for `depth` requests (`request`, depth 1, instead of the mix's when given); null
   * when a templated request of the mix finds no data row left, or a value was refused (`refused`
   * set): nothing is sent.
   */
  pick(depth: number, request: EncodedRequest | null): Uint8Array | null {
    this.refused = "";
    if (request !== null) return this.#one(request);
    if (depth === 1) return this.#mixOne(this.mix.requests[this.mix.next()]);
    return this.#many(depth);
  }

  #mixOne(request: EncodedRequest): Uint8Array | null {
    if (request.fixed || this.rows === null) return this.#one(request);
    const row = this.rows.next();
    if (row === null) return null;
    this.#heads[0] = request.isHead ? 1 : 0;
    this.#endpoints[0] = request.endpoint;
    return this.#filled(this.#writer.fill(request.template!, row, null));
  }

  #filled(bytes: Uint8Array | null): Uint8Array | null {
    if (bytes === null) this.refused = this.#writer.refused;
    return bytes;
  }

  /** Whether request `k` of the exchange picked last is HEAD. */
  isHead(k: number): boolean {
    return this.#heads[k] === 1;
  }

  /** The endpoint index of request `k` of the exchange picked last (the last one past its depth). */
  endpointOf(k: number): number {
    return this.#endpoints[k < this.#endpoints.length ? k : this.#endpoints.length - 1];
  }

  #one(request: EncodedRequest): Uint8Array | null {
    this.#heads[0] = request.isHead ? 1 : 0;
    this.#endpoints[0] = request.endpoint;
    if (request.fixed && this.extraHead === null) return request.bytes;
    return this.#filled(this.#writer.fill(request.template!, this.values, this.extraHead));
  }

  #many(depth: number): Uint8Array {
    const mix = this.mix;
    let length = 0;
    for (let k = 0; k < depth; k++) {
      const request = mix.requests[mix.next()];
      this.#heads[k] = request.isHead ? 1 : 0;
      this.#endpoints[k] = request.endpoint;
      // Data rows exclude pipelining (config.ts): a template here has built-in functions only, never refused.
      const bytes = request.fixed ? request.bytes : this.#writer.fill(request.template!, NO_VALUES, null)!;
      if (this.#batch.length < length + bytes.length) {
        const grown = new Uint8Array(Math.max(2 * this.#batch.length, length + bytes.length));
        grown.set(this.#batch.subarray(0, length));
        this.#batch = grown;
      }
      this.#batch.set(bytes, length);
      length += bytes.length;
    }
    return this.#batch.subarray(0, length);
  }
}
