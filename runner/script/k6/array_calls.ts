/**
 * @module
 * An array method whose callback the conversion made async (`urls.forEach((u) => http.get(u))`), run one
 * element after another and awaited, as k6 ran it; a receiver that cannot be walked so is refused.
 */

/** Gives `value` back with the caller's VU current again (each callback starts with it). */
export type Resume = (value: unknown) => unknown;

type Callback = (...args: any[]) => unknown;

/** `xs.method(callback, ...rest)` with an async callback, element after element; `resume` restores the VU. */
export async function runArrayCall(
  method: string,
  xs: unknown,
  callback: Callback,
  rest: unknown[],
  resume: Resume,
): Promise<unknown> {
  if (Array.isArray(xs)) return await overArray(method, xs, callback, rest, resume);
  if (method === "forEach" && (xs instanceof Map || xs instanceof Set)) {
    // Live, as the native forEach: an entry the callback adds is visited, one it deletes is not.
    for (const [key, value] of xs.entries()) await callback(resume(value), key, xs);
    return undefined;
  }
  throw new TypeError(unwalkable(method, xs));
}

function unwalkable(method: string, xs: unknown): string {
  if (xs === null || xs === undefined) return `Cannot read properties of ${xs} (reading '${method}')`;
  const kind = xs instanceof Map ? "a Map" : xs instanceof Set ? "a Set" : `${kindOf(xs)}`;
  return `${method}() with a callback that sends requests or sleeps, called on ${kind}: loadlab awaits such ` +
    `a callback only on an array (or a Map's or Set's forEach); make it one first, Array.from(...) or ` +
    `[...values], or use a for...of loop`;
}

function kindOf(xs: unknown): string {
  if (typeof xs !== "object" && typeof xs !== "function") return `a ${typeof xs}`;
  let name: unknown;
  try {
    name = Object.getPrototypeOf(xs)?.constructor?.name;
  } catch {
    // a Proxy whose traps throw: named as any object
  }
  return typeof name === "string" && name !== "" && name !== "Object" ? `a ${name}` : "an object";
}

/** Methods that skip an array's holes, as the native ones do (find and findIndex visit them). */
const SKIPS_HOLES = new Set(["forEach", "map", "filter", "some", "every", "flatMap", "reduce"]);

/** The array methods over an array: over the elements it had when the call began, as the native ones. */
async function overArray(
  method: string,
  xs: unknown[],
  callback: Callback,
  rest: unknown[],
  resume: Resume,
): Promise<unknown> {
  const length = xs.length;
  const present = SKIPS_HOLES.has(method) ? (k: number) => k in xs : () => true;
  if (method === "reduce") {
    let k = 0, acc = rest[0];
    if (rest.length === 0) {
      while (k < length && !present(k)) k++;
      if (k === length) throw new TypeError("Reduce of empty array with no initial value");
      acc = xs[k++];
    }
    for (; k < length; k++) if (present(k)) acc = await callback(resume(acc), xs[k], k, xs);
    return acc;
  }
  const results: unknown[] = method === "map" ? new Array(length) : [];
  for (let k = 0; k < length; k++) {
    if (!present(k)) continue;
    const r = await callback(resume(xs[k]), k, xs);
    if (method === "some" && r) return true;
    if (method === "every" && !r) return false;
    if (method === "find" && r) return xs[k];
    if (method === "findIndex" && r) return k;
    if (method === "filter" && r) results.push(xs[k]);
    if (method === "map") results[k] = r;
    if (method === "flatMap") {
      if (Array.isArray(r)) { for (const x of r) results.push(x); }
      else results.push(r);
    }
  }
  const ends: Record<string, unknown> = { some: false, every: true, find: undefined, findIndex: -1 };
  return method in ends ? ends[method] : method === "forEach" ? undefined : results;
}
