/**
 * @module
 * A data source's rows as one worker hands them out, one per arrival, from its stripe (`g` of `G`) alone:
 * `sequential` from `g·N/G`, `random`, or `unique` rows `k mod G = g`. HOT PATH: `next()` is an index step.
 */
import type { DataSpec } from "../session_schema.ts";
import { type PackedRows, rowViews } from "../data_rows.ts";
import { engineRandom } from "../http/template.ts";

export class Feeder {
  readonly #packed: PackedRows;
  /** Row `j` of this worker is packed row `#first + j * #step`. */
  readonly #first: number;
  readonly #step: number;
  readonly #count: number;
  readonly #views: Array<Uint8Array[] | undefined>;
  readonly #random: boolean;
  readonly #wrap: boolean;
  #cursor: number;
  #left: number;
  /** Arrivals that found no row left (each ended the worker's sending or was not sent). */
  exhausted = 0;
  /** Called once, when the first arrival finds no row left: the worker stops starting arrivals. */
  onExhausted: (() => void) | null = null;

  constructor(readonly spec: DataSpec, stripe: number, stripes: number) {
    const n = spec.rows.count;
    const unique = spec.order === "unique";
    this.#packed = spec.rows;
    this.#first = unique ? stripe : 0;
    this.#step = unique ? stripes : 1;
    this.#count = unique ? Math.max(0, Math.ceil((n - stripe) / stripes)) : n;
    this.#views = new Array(this.#count);
    this.#random = spec.order === "random";
    this.#wrap = !unique && spec.whenDone === "wrap";
    this.#cursor = unique || n === 0 ? 0 : Math.floor((stripe * n) / stripes) % n;
    this.#left = this.#count;
  }

  /** The next row's values (column order), or null when this worker's rows are used up. */
  next(): Uint8Array[] | null {
    const count = this.#count;
    if (this.#random) return this.#row((engineRandom() * count) | 0);
    if (this.#left === 0) {
      if (!this.#wrap || count === 0) return this.#ranOut();
      this.#left = count;
    }
    this.#left--;
    const j = this.#cursor;
    this.#cursor = j + 1 === count ? 0 : j + 1;
    return this.#row(j);
  }

  #row(j: number): Uint8Array[] {
    return this.#views[j] ??= rowViews(this.#packed, this.#first + j * this.#step);
  }

  #ranOut(): null {
    if (this.exhausted++ === 0) this.onExhausted?.();
    return null;
  }
}
