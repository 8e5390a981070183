/**
 * @module
 * The built-ins a script's top level must leave as JavaScript defines them, since the engine runs in the
 * script's isolate: a snapshot taken before the import is compared after it, and what changed is put back.
 */

/**
 * The objects whose own properties are held, by their paths from the global (`TypedArray` is Uint8Array's
 * parent). DataView: the epoll and io_uring transports read the kernel's events through it. `performance`:
 * the engine's clock (`performance.now = () => 0` shadows the prototype's with an own property).
 */
const HOLDERS = (
  "Object Object.prototype Function.prototype Array Array.prototype Promise Promise.prototype " +
  "String.prototype Number.prototype Map.prototype Set.prototype Error.prototype Uint8Array.prototype " +
  "TypedArray.prototype ArrayBuffer.prototype DataView.prototype RegExp.prototype TextEncoder.prototype " +
  "TextDecoder.prototype JSON Math Reflect Symbol performance Performance.prototype Deno.errors"
).split(" ");

/** Deno's functions the engine calls as the load runs (connects, TLS, timers' unref, error classes). */
const DENO_KEYS = ["connect", "connectTls", "startTls", "unrefTimer", "errors"];

const GLOBALS = (
  "Object Function Array Promise String Number Map Set Error TypeError Symbol JSON Math Reflect Date " +
  "Uint8Array ArrayBuffer DataView TextEncoder TextDecoder structuredClone queueMicrotask setTimeout " +
  "clearTimeout setInterval clearInterval postMessage close performance Deno"
).split(" ");

// Taken before any script loads: the comparison and restoring use nothing a script could have replaced.
const { getOwnPropertyDescriptor, defineProperty, deleteProperty, ownKeys } = Reflect;
const objectIs = Object.is;
const isExtensible = Object.isExtensible;
const PERFORMANCE_PROTOTYPE = Object.getPrototypeOf(performance);
const toText = String;

export type IntrinsicsSnapshot = ReturnType<typeof snapshotIntrinsics>;

export function snapshotIntrinsics() {
  const held = HOLDERS.map((name) => {
    const target = holderAt(name);
    return heldOf(name, target, ownKeys(target).filter((key) => !(name === "Math" && key === "random")));
  });
  held.push(heldOf("globalThis", globalThis, GLOBALS));
  held.push(heldOf("Deno", Deno, DENO_KEYS));
  return {
    held,
    onmessage: (globalThis as { onmessage?: unknown }).onmessage,
    extensible: isExtensible(globalThis),
  };
}

/** The object at `path` from the global, as it is now (a holder a script replaced is found as replaced). */
function holderAt(path: string): object {
  let at: unknown = globalThis;
  for (const key of path.split(".")) {
    at = key === "TypedArray" ? Object.getPrototypeOf(Uint8Array) : (at as Record<string, unknown>)[key];
  }
  return at as object;
}

function heldOf(name: string, target: object, keys: PropertyKey[]) {
  const own: Record<PropertyKey, PropertyDescriptor> = Object.create(null);
  for (const key of keys) {
    const d = getOwnPropertyDescriptor(target, key);
    if (d !== undefined) own[key] = d;
  }
  return { name, target, keys, own };
}

/** The built-ins changed since `before`, each put back; added properties count on Object.prototype only. */
export function restoreChangedIntrinsics(before: IntrinsicsSnapshot): string[] {
  const changed: string[] = [];
  const held = before.held;
  for (let h = 0; h < held.length; h++) {
    const { name, target, keys, own } = held[h];
    for (let i = 0; i < keys.length; i++) {
      const was = own[keys[i]];
      if (sameDescriptor(was, getOwnPropertyDescriptor(target, keys[i]))) continue;
      changed[changed.length] = `${name}.${toText(keys[i])}`;
      if (was === undefined) deleteProperty(target, keys[i]);
      else defineProperty(target, keys[i], was);
    }
    if (name === "globalThis" || name === "Deno") continue;
    const now = ownKeys(target);
    for (let i = 0; i < now.length; i++) {
      // Any property added counts on Object.prototype, or one shadowing the clock's own; elsewhere a `then`.
      const counts = name === "Object.prototype" || now[i] === "then" ||
        (name === "performance" && getOwnPropertyDescriptor(PERFORMANCE_PROTOTYPE, now[i]) !== undefined);
      if (own[now[i]] !== undefined || !counts) continue;
      changed[changed.length] = `${name}.${toText(now[i])}`;
      deleteProperty(target, now[i]);
    }
  }
  if (before.extensible && !isExtensible(globalThis)) changed[changed.length] = "globalThis (frozen)";
  const scope = globalThis as { onmessage?: unknown };
  if (scope.onmessage !== before.onmessage) {
    changed[changed.length] = "globalThis.onmessage";
    scope.onmessage = before.onmessage;
  }
  return changed;
}

/** Whether `a` and `b` hold the same value or accessors (Deno flips a global's enumerable on first run). */
function sameDescriptor(a: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return objectIs(a.value, b.value) && a.get === b.get && a.set === b.set;
}
