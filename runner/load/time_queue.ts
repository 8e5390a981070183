/**
 * @module
 * A FIFO of intended send times (ms) in a growable ring buffer: open-model sends wait here when every
 * connection is busy, without allocating an object per send.
 */
export class TimeQueue {
  #items = new Float64Array(64);
  #head = 0;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(timeMs: number): void {
    if (this.#length === this.#items.length) this.#grow();
    this.#items[(this.#head + this.#length) % this.#items.length] = timeMs;
    this.#length++;
  }

  /** The oldest time, or NaN when empty. */
  shift(): number {
    if (this.#length === 0) return NaN;
    const t = this.#items[this.#head];
    this.#head = (this.#head + 1) % this.#items.length;
    this.#length--;
    return t;
  }

  #grow(): void {
    const next = new Float64Array(this.#items.length * 2);
    for (let k = 0; k < this.#length; k++) next[k] = this.#items[(this.#head + k) % this.#items.length];
    this.#items = next;
    this.#head = 0;
  }
}
