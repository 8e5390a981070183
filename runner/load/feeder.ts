/**
 * @module
 * A data source's rows as one worker hands them out: one row per arrival (a request of a mix, or a
 * session of a flow), its values encoded to bytes once here so a templated request only copies them.
 * The worker is its global stripe (`g` of `G`: worker × segment, runner/load/schedule.ts `stripeOf`), so
 * the order is decided without talking to other workers:
 * - `sequential`: the whole file in order from the worker's own offset (`g·N/G`); `whenDone: wrap`
 *   goes round again, `stop` ends the worker's sending after N rows.
 * - `random`: a uniform pick each time; it never runs out.
 * - `unique`: row k belongs to stripe `k mod G` only, so workers and segments never share a row; each
 *   is used once and the worker stops sending when its rows are used (`whenDone` is always `stop`).
 * HOT PATH: `next()` is an index step; nothing is allocated.
 */
import type { DataSpec } from "../session_schema.ts";

const encoder = new TextEncoder();

export class Feeder {
  readonly #rows: Uint8Array[][];
  readonly #random: boolean;
  readonly #wrap: boolean;
  #cursor: number;
  #left: number;
  /** Arrivals that found no row left (each ended the worker's sending or was not sent). */
  exhausted = 0;
  /** Called once, when the first arrival finds no row left: the worker stops starting arrivals. */
  onExhausted: (() => void) | null = null;

  constructor(readonly spec: DataSpec, stripe: number, stripes: number) {
    const n = spec.rows.length;
    const unique = spec.order === "unique";
    const mine = unique ? spec.rows.filter((_, k) => k % stripes === stripe) : spec.rows;
    this.#rows = mine.map((row) => row.map((value) => encoder.encode(value)));
    this.#random = spec.order === "random";
    this.#wrap = !unique && spec.whenDone === "wrap";
    this.#cursor = unique || n === 0 ? 0 : Math.floor((stripe * n) / stripes) % n;
    this.#left = this.#rows.length;
  }

  /** The next row's values (column order), or null when this worker's rows are used up. */
  next(): Uint8Array[] | null {
    const rows = this.#rows;
    if (this.#random) return rows[(Math.random() * rows.length) | 0];
    if (this.#left === 0) {
      if (!this.#wrap || rows.length === 0) return this.#ranOut();
      this.#left = rows.length;
    }
    this.#left--;
    const row = rows[this.#cursor];
    this.#cursor = this.#cursor + 1 === rows.length ? 0 : this.#cursor + 1;
    return row;
  }

  #ranOut(): null {
    if (this.exhausted++ === 0) this.onExhausted?.();
    return null;
  }
}
