/**
 * @module
 * The built-ins a script's top level must leave as JavaScript defines them (and the few of Deno's functions
 * the engine calls as the load runs, `Deno.connect`...). loadlab's engine runs in the
 * script's isolate (the load workers, the setup/teardown isolate), so a module that replaces
 * `Promise.prototype.then`, `Array.prototype.push`, `JSON.stringify` or `postMessage`, or adds a `then`
 * to `Object.prototype` (every object becomes a thenable), broke the engine's own code: the run waited a
 * minute and blamed a setup() the script did not have, or failed with the bare value the patched
 * built-in threw. A snapshot taken before the import is compared after it; what changed is named, and put
 * back so the isolate can report it. A global object made non-extensible (`Object.freeze(globalThis)`)
 * cannot be put back: it is named for the refusal all the same. `Math.random` is the script's to seed: the
 * engine draws its own numbers from the generator it took as it loaded (runner/http/template.ts
 * `engineRandom`).
 */

type Holder = [name: string, get: () => object];

/** The objects whose own properties the engine relies on, by the name a script writes. */
const HOLDERS: Holder[] = [
  ["Object", () => Object],
  ["Object.prototype", () => Object.prototype],
  ["Function.prototype", () => Function.prototype],
  ["Array", () => Array],
  ["Array.prototype", () => Array.prototype],
  ["Promise", () => Promise],
  ["Promise.prototype", () => Promise.prototype],
  ["String.prototype", () => String.prototype],
  ["Number.prototype", () => Number.prototype],
  ["Map.prototype", () => Map.prototype],
  ["Set.prototype", () => Set.prototype],
  ["Error.prototype", () => Error.prototype],
  ["Uint8Array.prototype", () => Uint8Array.prototype],
  ["TypedArray.prototype", () => Object.getPrototypeOf(Uint8Array.prototype)],
  ["ArrayBuffer.prototype", () => ArrayBuffer.prototype],
  // The epoll and io_uring transports read the kernel's events and addresses through DataView: a
  // replaced getUint32 left every answer unread, the run "unanswered at the stop" without a word why.
  ["DataView.prototype", () => DataView.prototype],
  // The engine's message cleaning and its codecs: a replaced Symbol.replace made every script error "X".
  ["RegExp.prototype", () => RegExp.prototype],
  ["TextEncoder.prototype", () => TextEncoder.prototype],
  ["TextDecoder.prototype", () => TextDecoder.prototype],
  ["JSON", () => JSON],
  ["Math", () => Math],
  ["Reflect", () => Reflect],
  ["Symbol", () => Symbol],
  // The engine's clock: `performance.now = () => 0` shadows the prototype's with an own property.
  ["performance", () => performance],
  ["Performance.prototype", () => Object.getPrototypeOf(performance)],
  ["Deno.errors", () => Deno.errors],
];

/**
 * Deno's functions the engine calls as the load runs: the deno transport's connects and TLS (a replaced
 * `Deno.connect` failed every later connection, the run reading "lost" with no word why), its timers'
 * unref, and the error classes it tells failures apart by.
 */
const DENO_KEYS = ["connect", "connectTls", "startTls", "unrefTimer", "errors"];

/** Globals the engine calls by name (a worker's messages, its timers, its text codecs). */
const GLOBALS = [
  "Object",
  "Function",
  "Array",
  "Promise",
  "String",
  "Number",
  "Map",
  "Set",
  "Error",
  "TypeError",
  "Symbol",
  "JSON",
  "Math",
  "Reflect",
  "Date",
  "Uint8Array",
  "ArrayBuffer",
  "DataView",
  "TextEncoder",
  "TextDecoder",
  "structuredClone",
  "queueMicrotask",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "postMessage",
  "close",
  "performance",
  "Deno",
];

// Taken as this module loads, before any script: the comparison and the putting back use nothing a
// script's top level could have replaced (no Map, Set, spread or push: indexes and these functions).
const { getOwnPropertyDescriptor, defineProperty, deleteProperty, ownKeys } = Reflect;
const objectIs = Object.is;
const isExtensible = Object.isExtensible;
const PERFORMANCE_PROTOTYPE = Object.getPrototypeOf(performance);
const toText = String;

interface Held {
  name: string;
  target: object;
  keys: PropertyKey[];
  own: Record<PropertyKey, PropertyDescriptor>;
}

/** What the built-ins are now: each holder's own property descriptors, and the global's. */
export interface IntrinsicsSnapshot {
  held: Held[];
  onmessage: unknown;
  extensible: boolean;
}

/** The built-ins' own properties as they are before a script loads. */
export function snapshotIntrinsics(): IntrinsicsSnapshot {
  const held: Held[] = HOLDERS.map(([name, get]) =>
    heldOf(name, get(), ownKeys(get()).filter((key) => !(name === "Math" && key === "random")))
  );
  held.push(heldOf("globalThis", globalThis, GLOBALS));
  held.push(heldOf("Deno", Deno, DENO_KEYS));
  return {
    held,
    onmessage: (globalThis as { onmessage?: unknown }).onmessage,
    extensible: isExtensible(globalThis),
  };
}

function heldOf(name: string, target: object, keys: PropertyKey[]): Held {
  const own: Record<PropertyKey, PropertyDescriptor> = Object.create(null);
  for (const key of keys) {
    const d = getOwnPropertyDescriptor(target, key);
    if (d !== undefined) own[key] = d;
  }
  return { name, target, keys, own };
}

/**
 * The built-ins changed since `before` (`Promise.prototype.then`, `Object.prototype.then`), each put
 * back as it was; [] when none changed. Added properties count only on Object.prototype (every object
 * inherits them) and a `then` anywhere (it makes the holder's objects thenables); a polyfill adding a
 * method Deno lacks elsewhere is left alone.
 */
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
      // Any property added counts on Object.prototype (every object inherits it), one shadowing the clock's
      // own (`performance.now`: node's perf_hooks adds others); elsewhere only a `then` (a polyfill adding
      // a method is left alone).
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

/**
 * Whether `a` and `b` hold the same value or accessors (Deno flips a global's enumerable as it first runs).
 */
function sameDescriptor(a: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return objectIs(a.value, b.value) && a.get === b.get && a.set === b.set;
}
