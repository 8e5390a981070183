/**
 * @module
 * The bytes of one exchange: the mix's next request, a flow step's own, or `depth` of them back to back
 * (pipelining). HOT PATH: nothing allocated per request; templates and pipelining are made on first use.
 */
import type { EncodedRequest, RequestMix } from "./request.ts";
import { TemplateWriter } from "./template.ts";

/** Rows of a data source, one per templated request of the mix (runner/load/feeder.ts). */
export interface RowSource {
  /** The next row's values, or null when none is left (the request is then not sent). */
  next(): Uint8Array[] | null;
}

const NO_VALUES: ReadonlyArray<Uint8Array> = [];
const EMPTY = new Uint8Array(0);

export class RequestPicker {
  /** Request k's endpoint index times 2, plus 1 for HEAD (a plain array: no buffer per connection). */
  readonly #picked: number[];
  #batch = EMPTY;
  #writer: TemplateWriter | null = null;
  /** The session's values by index (a flow step's placeholders); set by the session before a step. */
  values: ReadonlyArray<Uint8Array> = NO_VALUES;
  /** A `Cookie: ...` line (CRLF-ended) the session's jar adds to the next step, or null. */
  extraHead: Uint8Array | null = null;
  /** Why the last `pick` returned null for a value it refused (the count message), else "". */
  refused = "";

  constructor(readonly mix: RequestMix, maxDepth: number, readonly rows: RowSource | null = null) {
    this.#picked = Array.from({ length: Math.max(1, maxDepth) }, () => 0);
  }

  get #templates(): TemplateWriter {
    return this.#writer ??= new TemplateWriter();
  }

  #pick(k: number, request: EncodedRequest): void {
    this.#picked[k] = 2 * request.endpoint + (request.isHead ? 1 : 0);
  }

  /** Bytes for `depth` requests (or `request`); null when no data row is left or a value was refused. */
  pick(depth: number, request: EncodedRequest | null): Uint8Array | null {
    this.refused = "";
    if (request !== null) return this.#one(request);
    if (depth !== 1) return this.#many(depth);
    const next = this.mix.requests[this.mix.next()];
    if (next.fixed || this.rows === null) return this.#one(next);
    const row = this.rows.next();
    if (row === null) return null;
    this.#pick(0, next);
    return this.#filled(this.#templates.fill(next.template!, row, null));
  }

  #filled(bytes: Uint8Array | null): Uint8Array | null {
    if (bytes === null) this.refused = this.#templates.refused;
    return bytes;
  }

  isHead(k: number): boolean {
    return (this.#picked[k] & 1) === 1;
  }

  /** The endpoint index of request `k` of the exchange picked last (the last one past its depth). */
  endpointOf(k: number): number {
    const picked = this.#picked;
    return picked[k < picked.length ? k : picked.length - 1] >> 1;
  }

  #one(request: EncodedRequest): Uint8Array | null {
    this.#pick(0, request);
    if (request.fixed && this.extraHead === null) return request.bytes;
    return this.#filled(this.#templates.fill(request.template!, this.values, this.extraHead));
  }

  #many(depth: number): Uint8Array {
    const mix = this.mix;
    let length = 0;
    for (let k = 0; k < depth; k++) {
      const request = mix.requests[mix.next()];
      this.#pick(k, request);
      // Data rows exclude pipelining (config.ts): a template here has built-in functions only, never refused.
      const bytes = request.fixed ? request.bytes : this.#templates.fill(request.template!, NO_VALUES, null)!;
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
