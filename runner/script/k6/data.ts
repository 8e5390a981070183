/**
 * @module
 * k6's `k6/data`: a `SharedArray` built once per isolate, frozen, shared by its sessions; setup()'s data.
 */
/** k6's error of setup() data Go's JSON cannot marshal (its exit 255). */
export const SETUP_NOT_JSON = "error marshaling setup() data to JSON";

/** setup()'s data as k6's VUs get it (Go's JSON): Date as RFC 3339, undefined null, Map/Set as lists. */
export function setupDataOf(data: unknown): unknown {
  try {
    return data === undefined ? undefined : JSON.parse(JSON.stringify(data, function (key, value) {
      const own = this[key], finite = typeof own !== "number" || Number.isFinite(own);
      const bad = typeof own === "function" ? "type: func" : finite ? "" : `value: ${own}`;
      if (bad) throw new Error(`json: unsupported ${bad}`);
      if (own instanceof Map || own instanceof Set) return [...own];
      return own instanceof Date ? own.toISOString().replace(/\.?0*Z$/, "Z") : value ?? null;
    }));
  } catch (err) {
    throw new Error(`${SETUP_NOT_JSON}: ${(err as Error).message}`);
  }
}

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
