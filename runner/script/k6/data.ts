/**
 * @module
 * k6's `k6/data`: a `SharedArray` is built once per worker isolate, frozen, and shared by its sessions.
 */
const built = new Map<string, readonly unknown[]>();

export class SharedArray {
  constructor(name: string, build: () => unknown[]) {
    let rows = built.get(name);
    if (rows === undefined) {
      const made = build();
      if (!Array.isArray(made)) throw new TypeError(`SharedArray ${name}: the function must return an array`);
      rows = Object.freeze(made.map((r) => Object.freeze(r)));
      built.set(name, rows);
    }
    // A constructor that returns an object makes `new` give that object: the frozen array itself.
    return rows as unknown as SharedArray;
  }
}

export default { SharedArray };
