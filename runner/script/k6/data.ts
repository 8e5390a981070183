/**
 * @module
 * k6's `k6/data` for converted scripts: a `SharedArray` is built once per worker isolate (k6 builds it
 * once and shares it read-only between VUs; here the isolate's sessions share it) and frozen.
 */
const built = new Map<string, readonly unknown[]>();

/** k6's SharedArray: `new SharedArray(name, () => rows)` is the rows, read-only, built once per isolate. */
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
