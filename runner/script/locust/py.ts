/**
 * @module
 * The Python a converted locustfile runs on: the subset's builtins and operators over JavaScript's values
 * (a dict a plain object, a tuple a frozen Array, None null); keyword arguments travel as a trailing `Kw`.
 */

/** Keyword arguments of a call (`f(a, b=1)` passes `a, new Kw({ b: 1 })`). */
export class Kw {
  constructor(readonly values: Record<string, unknown>) {}
}

/** Python's exceptions as the subset raises and catches them. */
export class PyError extends Error {
  constructor(readonly pyType: string, message = "") {
    super(message === "" ? pyType : `${pyType}: ${message}`);
    this.name = pyType;
  }
}

/** An exception class (`ValueError`): raised, matched by `except`, called as Python's, a file's extend it. */
export function exceptionClass(name: string) {
  const made = classes.get(name);
  if (made !== undefined) return made;
  const cls = class extends PyError {
    constructor(message?: unknown) {
      const type = Object.hasOwn(new.target, "pyType") ? name : new.target.name;
      // A KeyError says its key as repr() writes it, as Python's.
      super(type, message == null ? "" : (name === "KeyError" ? repr : str)(message));
    }
  };
  Object.defineProperty(cls, "name", { value: name }); // `type(err).__name__`
  const proxy = new Proxy(Object.assign(cls, { pyType: name }), { apply: (c, _, a) => new c(...a) });
  return classes.set(name, proxy), proxy;
}
/** Python's exception classes by name: one each, what `type()` of one raised by name gives. */
const classes = new Map<string, typeof PyError & { pyType: string }>();

/** Python's `object`, a file's plain classes' base: made by a call, its most derived `__init__` run then. */
export class PyObject {
  constructor(...a: unknown[]) {
    // A class with `__getattr__` (a wrapper around a client) is asked for each name it does not hold.
    const self = "__getattr___py" in this ? new Proxy(this, { get: attribute }) : this;
    self.__init___py(...a);
    return self;
  }
  __init___py(..._a: unknown[]): void {}
}

/** `x.name` as Python reads it: a method bound to `x`, else `__getattr__(name)` of a name `x` lacks. */
function attribute(x: any, name: string | symbol, self = x): any {
  if (name in x || typeof name === "symbol") return Reflect.get(x, name, self);
  return typeof x.__getattr___py === "function" ? x.__getattr___py(name) : undefined;
}

/** `f.__name__`: the def's, as Python spells it (the conversion's `static_py` is `static`). */
export const nameOf = (x: { name: string }) => x.name.replace(/_py$/, "");

/** What `raise x` throws: `x`, or a new one of it when it is a class (`raise StopUser`). */
export function raised(x: any, cause?: unknown): unknown {
  const err = typeof x === "function" ? new x() : x;
  if (cause !== undefined) err.__cause__ = cause; // `raise x from cause`
  return err;
}

/** Whether `err` is caught by `except` of `types` (`Exception` catches any but a kill: `GreenletExit`). */
export function matches(err: unknown, ...types: unknown[]): boolean {
  const flat = types.flatMap((t) => Array.isArray(t) ? t : [t]);
  return flat.some((t) => {
    const name = Object.hasOwn(t as object, "pyType") ? (t as { pyType: string }).pyType : undefined;
    if (name === "Exception") return (err as Error)?.name !== "GreenletExit";
    if (typeof t === "function" && err instanceof (t as new () => unknown)) return true;
    for (let type = (err as PyError | null)?.pyType; type !== undefined; type = BASES[type]) {
      if (type === name) return true;
    }
    return false;
  });
}

/** Python's bases of the exceptions raised by name: `except ValueError` catches a JSONDecodeError. */
const BASES: Record<string, string> = {
  JSONDecodeError: "ValueError",
  KeyError: "LookupError",
  IndexError: "LookupError",
  ZeroDivisionError: "ArithmeticError",
  FileNotFoundError: "OSError",
  PermissionError: "OSError",
  TimeoutError: "OSError",
  ConnectionError: "OSError",
  NotImplementedError: "RuntimeError",
};

/**
 * Parameters by name: positionals, then `Kw` values, then defaults; `rest` and `restKw` the others. The names
 * from `kwOnly` on (those after `*` or `*args`) are taken by keyword alone.
 */
export function args(
  given: unknown[],
  names: string[],
  defaults: unknown[] = [],
  rest = false,
  restKw = false,
  kwOnly = names.length,
): unknown[] {
  const [positional, kwValues] = splitKw(given);
  const named = { ...kwValues };
  const out = names.map((name, i) => {
    if (i < positional.length && i < kwOnly) return positional[i];
    if (Object.hasOwn(named, name)) {
      const v = named[name];
      delete named[name];
      return v;
    }
    const d = defaults[i - (names.length - defaults.length)];
    if (i >= names.length - defaults.length) return d;
    throw new PyError("TypeError", `missing argument '${name}'`);
  });
  if (rest) out.push(positional.slice(kwOnly));
  else if (positional.length > kwOnly) {
    throw new PyError("TypeError", `takes ${kwOnly} positional arguments, ${positional.length} given`);
  }
  if (restKw) out.push(named);
  return out;
}

function splitKw(a: unknown[]): [unknown[], Record<string, unknown>] {
  const last = a[a.length - 1];
  return last instanceof Kw ? [a.slice(0, -1), last.values] : [a, {}];
}

/** A sized value's `len()`; null for any other value. */
function sizeOf(x: unknown): number | null {
  if (Array.isArray(x) || typeof x === "string" || x instanceof Uint8Array) return x.length;
  if (x instanceof Map || x instanceof Set) return x.size;
  return isDict(x) ? Object.keys(x).length : null;
}

/** A class method's `cls`: the class it was called on, or its instance's. */
export const classOf = (x: any) => typeof x === "function" ? x : x.constructor;

export function bool(x: unknown): boolean {
  const size = sizeOf(x);
  return size === null ? Boolean(x) : size > 0;
}

/** A dict's `__missing__` (a `defaultdict`'s or `Counter`'s): the value of a key it lacks. */
export const MISSING = Symbol("__missing__");

export function isDict(x: unknown): x is Record<string | symbol, any> {
  return x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype;
}

export function add(a: any, b: any): any {
  if (a?.__add__) return a.__add__(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    return Object.isFrozen(a) ? Object.freeze([...a, ...b]) : [...a, ...b];
  }
  // A bool is an int (`ok + (exception is None)`); a str adds to a str only.
  const numeric = (x: unknown) => typeof x === "number" || typeof x === "boolean";
  if (numeric(a) && numeric(b)) return Number(a) + Number(b);
  if (typeof a !== "string" || typeof b !== "string") {
    throw new PyError("TypeError", `unsupported operand types for +: ${typeName(a)} and ${typeName(b)}`);
  }
  return a + b;
}

/** `a | b`: the union of dicts (Python 3.9's) or sets, else an integer's bits. */
export const or = (a: any, b: any): any =>
  Array.isArray(a) ? [...new Set([...a, ...b])] : typeof a === "object" ? { ...a, ...b } : a | b;

export function sub(a: any, b: any): any {
  return a?.__sub__ ? a.__sub__(b) : a - b;
}

export function mul(a: any, b: any): any {
  if (typeof a === "string" && typeof b === "number") return a.repeat(Math.max(0, b));
  if (Array.isArray(a) && typeof b === "number") {
    return Array.from({ length: Math.max(0, b) }, () => a).flat();
  }
  return a * b;
}

/** `a / b`: a number's quotient, or what an object's `__truediv__` makes of it (a path joined). */
export function div(a: any, b: number, why = "division by zero"): any {
  if (typeof a === "object" && a !== null && "__truediv__" in a) return a.__truediv__(b);
  if (b === 0) throw new PyError("ZeroDivisionError", why);
  return a / b;
}

export const floordiv = (a: number, b: number) => Math.floor(div(a, b, "integer division by zero"));

export function mod(a: any, b: any): any {
  if (typeof a === "string") return percentFormat(a, Array.isArray(b) ? b : [b]);
  return ((a % b) + b) % b;
}

/** `"%s %05.1f" % (a, b)`, `"%(id)s" % d`: Python's conversions, with a key, flags, width, precision. */
function percentFormat(text: string, values: unknown[]): string {
  let i = 0;
  const conversion = /%(?:\((\w+)\))?([-0+ #]*)(\d*)(\.\d+)?([sdifrxXoeEgGc%])/g;
  return text.replace(conversion, (_, key, flag: string, width: string, precision = "", kind: string) => {
    if (kind === "%") return "%";
    const v = key === undefined ? values[i++] : (values[0] as Record<string, unknown>)[key];
    const type = kind === "s" || kind === "r" ? "" : kind === "i" ? "d" : kind;
    const has = (f: string) => flag.includes(f) ? f : "";
    const spec = `${has("-") ? "<" : ">"}${has("+") || has(" ")}${has("#")}${has("-") ? "" : has("0")}` +
      `${width}${precision}${type}`;
    return format(kind === "r" ? repr(v) : v, spec);
  });
}

export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => eq(v, b[i]));
  if (isDict(a) && isDict(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && eq(a[k], b[k]));
  }
  return false;
}

export function contains(container: unknown, item: unknown): boolean {
  if (typeof container === "string") return container.includes(str(item));
  if (container instanceof Uint8Array) return new TextDecoder().decode(container).includes(str(item));
  if (Array.isArray(container)) return container.some((v) => eq(v, item));
  if (container instanceof Set || container instanceof Map) return container.has(item);
  if (container !== null && typeof container === "object") {
    const c = container as { __contains__?: (k: unknown) => boolean };
    if (typeof c.__contains__ === "function") return c.__contains__(item);
    return Object.hasOwn(container, str(item));
  }
  throw new PyError("TypeError", `argument of type '${typeName(container)}' is not iterable`);
}

/** A sequence's index `i` of Python's, a negative one from the end. */
const index = (length: number, i: number) => i < 0 ? length + i : i;

export function getitem(x: any, key: any): any {
  if (Array.isArray(x) || typeof x === "string") {
    const i = index(x.length, key);
    if (!Number.isInteger(i) || i < 0 || i >= x.length) throw new PyError("IndexError", "index out of range");
    return x[i];
  }
  if (x !== null && typeof x === "object" && typeof x.__getitem__ === "function") return x.__getitem__(key);
  if (isDict(x)) {
    if (Object.hasOwn(x, str(key))) return x[str(key)];
    return x[MISSING] ? x[MISSING](str(key)) : orDefault([], new PyError("KeyError", repr(key)));
  }
  throw new PyError("TypeError", `'${typeName(x)}' object is not subscriptable`);
}

export function setitem(x: any, key: any, value: unknown): void {
  if (Array.isArray(x)) x[index(x.length, key)] = value;
  else if (typeof x?.__setitem__ === "function") x.__setitem__(key, value);
  else x[str(key)] = value;
}

export function delitem(x: any, key: any): void {
  if (Array.isArray(x)) x.splice(index(x.length, key), 1);
  else delete x[str(key)];
}

export function slice(x: any, start?: number | null, end?: number | null, step?: number | null): any {
  const n = x.length, by = step ?? 1;
  const clamp = (i: number) => Math.min(Math.max(index(n, i), 0), n);
  const from = start == null ? (by > 0 ? 0 : n - 1) : clamp(start);
  const to = end == null ? (by > 0 ? n : -1) : clamp(end);
  const out: unknown[] = [];
  for (let i = from; by > 0 ? i < to : i > to; i += by) out.push(x[i]);
  return typeof x === "string"
    ? out.join("")
    : x instanceof Uint8Array
    ? Uint8Array.from(out as number[])
    : out;
}

function typeName(x: unknown): string {
  if (x === null || x === undefined) return "NoneType";
  if (Array.isArray(x)) return Object.isFrozen(x) ? "tuple" : "list";
  if (typeof x === "string") return "str";
  if (typeof x === "number") return Number.isInteger(x) ? "int" : "float";
  if (typeof x === "boolean") return "bool";
  if (isDict(x)) return "dict";
  return typeof x === "function" ? "function" : (x as object).constructor?.name || "object";
}

/**
 * A number the conversion types a float, as a text is made of it (`print`, `%`, `format`): JavaScript has one
 * kind of number, so `2.0`'s float text needs its type beside it. Other numbers that are not integers are
 * floats by their value.
 */
export class Float {
  constructor(readonly n: number) {}
  valueOf(): number {
    return this.n;
  }
}
/** `x` typed a float where a text is made of it; a list of floats item by item, a tuple kept one. */
export const fl = (x: unknown): unknown =>
  typeof x === "number" && Number.isInteger(x)
    ? new Float(x)
    : Array.isArray(x)
    ? (Object.isFrozen(x) ? Object.freeze(x.map(fl)) : x.map(fl))
    : x;

export function str(x: unknown): string {
  if (typeof x === "string") return x;
  if (x === null || x === undefined) return "None";
  if (typeof x === "boolean") return x ? "True" : "False";
  if (typeof x === "number") return Number.isInteger(x) ? String(x) : floatText(x);
  if (x instanceof Float) return floatText(x.n);
  if (Array.isArray(x) || isDict(x)) return repr(x);
  if (x instanceof PyError) return x.message.slice(x.pyType.length + 2);
  if (x instanceof Uint8Array) return `b'${[...x].map(byteText).join("")}'`;
  const own = (x as Own).__str___py ?? (x as Own).__repr___py; // a class's own, as Python's str() calls it
  return typeof own === "function" ? own.call(x) : String(x);
}
/** A float's text as Python's `str` writes it: `2.0`, `1e+16`, `1e-05`, `inf`. */
export function floatText(x: unknown): string {
  if (typeof x !== "number") return str(x);
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const e = Number(x.toExponential().split("e")[1]);
  if (e < -4 || e >= 16) return exponent(x.toExponential(), "e");
  return Number.isInteger(x) ? `${x}.0` : String(x);
}
type Own = { __str___py?: () => string; __repr___py?: () => string };

/** A byte as `bytes`' repr writes it: printable ASCII itself, else an escape. */
function byteText(c: number): string {
  if (c === 92 || c === 39) return `\\${String.fromCharCode(c)}`;
  if (c >= 32 && c < 127) return String.fromCharCode(c);
  return ({ 9: "\\t", 10: "\\n", 13: "\\r" } as Record<number, string>)[c] ??
    `\\x${c.toString(16).padStart(2, "0")}`;
}

export function repr(x: unknown): string {
  if (typeof x === "string") return `'${x.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  if (Array.isArray(x)) {
    const inner = x.map(repr).join(", ");
    return Object.isFrozen(x) ? `(${inner}${x.length === 1 ? "," : ""})` : `[${inner}]`;
  }
  if (isDict(x)) return `{${Object.entries(x).map(([k, v]) => `${repr(k)}: ${repr(v)}`).join(", ")}}`;
  return typeof (x as Own)?.__repr___py === "function" ? (x as Own).__repr___py!() : str(x);
}

/** The values `for` walks: a dict's keys, a text's characters, an iterable's items (a file's lines). */
export function iter(x: any): Iterable<any> {
  if (isDict(x) && !(Symbol.iterator in x)) return Object.keys(x);
  if (x === null || x === undefined || typeof x[Symbol.iterator] !== "function") {
    throw new PyError("TypeError", `'${typeName(x)}' object is not iterable`);
  }
  return x;
}

export function tuple(...items: unknown[]): readonly unknown[] {
  return Object.freeze(items);
}

/** `a, b = value`; with `star` (the starred target's place), `a, *rest, b = value`: rest a list. */
export function unpack(value: unknown, n: number, star = -1): unknown[] {
  const items = [...iter(value)], fixed = star < 0 ? n : n - 1;
  if (star < 0 ? items.length !== n : items.length < fixed) {
    throw new PyError("ValueError", `expected ${fixed} values to unpack, got ${items.length}`);
  }
  if (star >= 0) items.splice(star, items.length - fixed, items.slice(star, star + items.length - fixed));
  return items;
}

/** `f"{x:.2f}"`: a replacement's value by its format spec (fixed, integer, padded, percent). */
export function format(value: unknown, spec = ""): string {
  if (spec === "") return str(value);
  const float = value instanceof Float;
  if (value instanceof Float) value = value.n;
  const m = /^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/.exec(spec);
  if (m === null) throw new PyError("ValueError", `Invalid format specifier '${spec}'`);
  const [, given, align, sign = "-", alt, zero, width, group, precision, kind = ""] = m,
    fill = given ?? (zero ? "0" : " ");
  const n = Number(value), p = Number(precision ?? 6), base = { b: 2, o: 8, x: 16, X: 16 }[kind as "b"];
  let text: string;
  if (base !== undefined) {
    text = (alt ? `0${kind}` : "") + Math.abs(Math.trunc(n)).toString(base);
    if (kind === "X") text = text.toUpperCase();
  } else if (kind === "c") text = String.fromCodePoint(n);
  else if (/[eE]/.test(kind)) text = exponent(Math.abs(n).toExponential(p), kind);
  else if (/[gGn]/.test(kind) || (kind === "" && precision !== undefined && typeof value === "number")) {
    // Python's general form: fixed while the exponent is in [-4, precision), trailing zeros dropped.
    const digits = Math.max(1, Number(precision ?? 6)), e = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
    text = e < -4 || e >= digits
      ? exponent(Math.abs(n).toExponential(digits - 1).replace(/\.?0+e/, "e"), kind === "G" ? "E" : "e")
      : fixed(Math.abs(n), Math.max(0, digits - 1 - e)).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
  } else if (kind === "%") text = `${fixed(Math.abs(n) * 100, p)}%`;
  else if (/[fF]/.test(kind)) text = fixed(Math.abs(n), p);
  else if (kind === "d") text = String(Math.abs(Math.trunc(n)));
  else if (typeof value === "number" && precision === undefined) {
    text = (float ? floatText : str)(Math.abs(n));
  } else text = precision === undefined ? str(value) : str(value).slice(0, p);
  const numeric = typeof value === "number" && kind !== "s" && kind !== "c";
  if (group) text = text.replace(/^\d+/, (d) => d.replace(/\B(?=(\d{3})+$)/g, group));
  const signText = !numeric ? "" : n < 0 || Object.is(n, -0) ? "-" : sign === "-" ? "" : sign;
  const w = Number(width ?? 0) - signText.length;
  if (text.length >= w) return signText + text;
  // Zeros without an alignment go after the sign, as a number's padding does.
  const alignTo = align ?? (zero ? "=" : numeric ? ">" : "<"), gap = w - text.length;
  if (alignTo === "=") return signText + (align ? fill : "0").repeat(gap) + text;
  const left = alignTo === "<" ? 0 : alignTo === ">" ? gap : Math.floor(gap / 2);
  return fill.repeat(left) + signText + text + fill.repeat(gap - left);
}

/** JavaScript's exponent (`1.5e+0`) as Python writes it (`1.5e+00`). */
function exponent(text: string, kind: string): string {
  return text.replace(/e([-+])(\d)$/, "e$10$2").replace("e", kind);
}

/** `x.name(...)` on a script's value: Python's methods of text, lists and dicts, else the value's own. */
export function method(x: any, name: string, ...a: unknown[]): any {
  if (typeof x === "string" && Object.hasOwn(STR_METHODS, name)) return STR_METHODS[name](x, ...a);
  if (x instanceof Uint8Array && name === "decode") return new TextDecoder().decode(x);
  if (Array.isArray(x) && Object.hasOwn(LIST_METHODS, name)) return LIST_METHODS[name](x, ...a);
  if (isDict(x) && Object.hasOwn(DICT_METHODS, name)) return DICT_METHODS[name](x, ...a);
  const fn = x?.[name];
  if (typeof fn !== "function") {
    throw new PyError("AttributeError", `'${typeName(x)}' object has no attribute '${name}'`);
  }
  return fn.apply(x, a);
}

type Methods<T> = Record<string, (x: T, ...a: any[]) => unknown>;

const STR_METHODS: Methods<string> = {
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  strip: (s, chars?: string) =>
    chars == null ? s.trim() : stripChars(stripChars(s, chars, true), chars, false),
  lstrip: (s, chars?: string) => chars == null ? s.trimStart() : stripChars(s, chars, true),
  rstrip: (s, chars?: string) => chars == null ? s.trimEnd() : stripChars(s, chars, false),
  split: (s, sep?: string | null, max?: number) => {
    if (sep == null) return s.trim() === "" ? [] : s.trim().split(/\s+/);
    const parts = s.split(sep);
    return max === undefined || max < 0 ? parts : [...parts.slice(0, max), parts.slice(max).join(sep)];
  },
  join: (s, items: unknown) =>
    [...iter(items)].map((v) => {
      if (typeof v !== "string") throw new PyError("TypeError", "sequence item: expected str instance");
      return v;
    }).join(s),
  startswith: (s, p: string | string[]) => (Array.isArray(p) ? p : [p]).some((x) => s.startsWith(x)),
  endswith: (s, p: string | string[]) => (Array.isArray(p) ? p : [p]).some((x) => s.endsWith(x)),
  replace: (s, a: string, b: string) => s.replaceAll(a, b),
  removeprefix: (s, p: string) => s.startsWith(p) ? s.slice(p.length) : s,
  removesuffix: (s, p: string) => p !== "" && s.endsWith(p) ? s.slice(0, -p.length) : s,
  partition: (s, sep: string, i = s.indexOf(sep)) =>
    i < 0 ? tuple(s, "", "") : tuple(s.slice(0, i), sep, s.slice(i + sep.length)),
  find: (s, sub: string) => s.indexOf(sub),
  count: (s, sub: string) => s.split(sub).length - 1,
  format: (s, ...a: unknown[]) => {
    const [positional, named] = splitKw(a);
    let auto = 0;
    return s.replace(/\{\{|\}\}|\{([^{}:]*)(?::([^{}]*))?\}/g, (whole, key = "", spec?: string) => {
      if (whole === "{{" || whole === "}}") return whole[0];
      const v = key === "" ? positional[auto++] : /^\d+$/.test(key) ? positional[Number(key)] : named[key];
      return format(v, spec ?? "");
    });
  },
  isdigit: (s) => /^\d+$/.test(s),
  isalpha: (s) => /^\p{L}+$/u.test(s),
  title: (s) => s.replace(/\w\S*/g, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase()),
  capitalize: (s) => s.slice(0, 1).toUpperCase() + s.slice(1).toLowerCase(),
  encode: (s) => new TextEncoder().encode(s),
  zfill: (s, n: number) => s.padStart(n, "0"),
};

function stripChars(s: string, chars: string, start: boolean): string {
  let i = start ? 0 : s.length;
  if (start) { while (i < s.length && chars.includes(s[i])) i++; }
  else while (i > 0 && chars.includes(s[i - 1])) i--;
  return start ? s.slice(i) : s.slice(0, i);
}

/** A list's methods, and a set's (a set is a list of distinct values here). */
const LIST_METHODS: Methods<unknown[]> = {
  // A deque of a `maxlen` drops from the other end, as collections.deque does.
  append: (l, v) => void (l.push(v) > ((l as { maxlen?: number }).maxlen ?? Infinity) && l.shift()),
  appendleft: (l, v) => void (l.unshift(v) > ((l as { maxlen?: number }).maxlen ?? Infinity) && l.pop()),
  popleft: (l) => LIST_METHODS.pop(l, 0),
  add: (l, v) => void (l.some((x) => eq(x, v)) || l.push(v)),
  extend: (l, v) => void l.push(...iter(v)),
  insert: (l, i: number, v) => void l.splice(index(l.length, i), 0, v),
  pop: (l, i?: number) => {
    if (l.length === 0) throw new PyError("IndexError", "pop from empty list");
    return i === undefined ? l.pop() : l.splice(index(l.length, i), 1)[0];
  },
  remove: (l, v) => void l.splice(indexOf(l, v, "list.remove(x): x not in list"), 1),
  index: (l, v) => indexOf(l, v, `${repr(v)} is not in list`),
  count: (l, v) => l.filter((x) => eq(x, v)).length,
  clear: (l) => void l.splice(0),
  copy: (l) => [...l],
  reverse: (l) => void l.reverse(),
  sort: (l, ...a) => void l.splice(0, l.length, ...sortedOf(l, ...a)),
};

function indexOf(l: unknown[], v: unknown, why: string): number {
  const at = l.findIndex((x) => eq(x, v));
  if (at < 0) throw new PyError("ValueError", why);
  return at;
}

function orDefault(dflt: unknown[], err: PyError): unknown {
  if (dflt.length > 0) return dflt[0];
  throw err;
}

/** A Python mapping of `lookup`'s values: headers, os.environ, a cookie jar (with `more`'s methods). */
export function mapping(lookup: (k: string) => string | null | undefined, more: object = {}) {
  return Object.assign(Object.create(null), {
    get: (k: string, d: unknown = null) => lookup(k) ?? d,
    __getitem__: (k: string) => lookup(k) ?? orDefault([], new PyError("KeyError", repr(k))),
    __contains__: (k: string) => lookup(k) != null,
  }, more);
}

const DICT_METHODS: Methods<Record<string, unknown>> = {
  get: (d, k, dflt = null) => Object.hasOwn(d, str(k)) ? d[str(k)] : dflt,
  keys: (d) => Object.keys(d),
  values: (d) => Object.values(d),
  items: (d) => Object.entries(d).map(([k, v]) => tuple(k, v)),
  update: (d, other?: unknown, ...rest: unknown[]) => {
    const last = rest.length > 0 ? rest[rest.length - 1] : other;
    if (other instanceof Kw) Object.assign(d, other.values);
    else if (other != null) Object.assign(d, isDict(other) ? other : Object.fromEntries([...iter(other)]));
    if (last instanceof Kw && last !== other) Object.assign(d, last.values);
  },
  pop: (d, k, ...dflt) => {
    const key = str(k),
      v = Object.hasOwn(d, key) ? d[key] : orDefault(dflt, new PyError("KeyError", repr(k)));
    delete d[key];
    return v;
  },
  setdefault: (d, k, v = null) => Object.hasOwn(d, str(k)) ? d[str(k)] : (d[str(k)] = v),
  copy: (d) => ({ ...d }),
  clear: (d) => Object.keys(d).forEach((k) => delete d[k]),
};

/** The names of a text's, list's and dict's methods (a read of one, not called, is `bound`). */
export const METHOD_NAMES = new Set([STR_METHODS, LIST_METHODS, DICT_METHODS].flatMap(Object.keys));

/** `x.name` read, not called (`key=d.get`): a text's, list's or dict's method bound to `x`, else `x.name`. */
export function bound(x: any, name: string): unknown {
  const kind = typeof x === "string"
    ? STR_METHODS
    : Array.isArray(x)
    ? LIST_METHODS
    : isDict(x)
    ? DICT_METHODS
    : {};
  const fn = Object.hasOwn(kind, name) && !Object.hasOwn(Object(x), name)
    ? (kind as Methods<any>)[name]
    : null;
  return fn === null ? x[name] : (...a: unknown[]) => fn(x, ...a);
}

/** `x` to `digits` places as Python's `%f` writes it: a tie of the double's exact value to the even one. */
const fixed = (x: number, digits: number) =>
  Number.isFinite(x) ? pyRound(x, digits).toFixed(digits) : floatText(x);

/** Python's `round`: the double's exact value to `digits` places, a tie (2.5, 0.125) to the even one. */
function pyRound(x: number, digits = 0): number {
  const size = Math.abs(x), unit = 10 ** -digits;
  if (digits < 0 || !(size < 1e21)) return Math.round(x / unit) * unit;
  let r = Number(size.toFixed(digits)); // the nearest, a tie away from zero
  const tie = /^50*$/.test(size.toFixed(100).split(".")[1].slice(digits));
  if (tie && Math.round(r / unit) % 2 === 1) r = Number((r - unit).toFixed(digits));
  return (x < 0 ? -r : r) || 0;
}

function sortedOf(items: unknown, ...a: unknown[]): unknown[] {
  const [key, reverse] = args(a, ["key", "reverse"], [null, false]);
  const k = (key ?? ((v: unknown) => v)) as (v: unknown) => any;
  const list = [...iter(items)].sort((x, y) => {
    const a1 = k(x), b1 = k(y);
    return a1 < b1 ? -1 : a1 > b1 ? 1 : 0;
  });
  return reverse ? list.reverse() : list;
}

function rangeOf(...a: number[]): number[] {
  const [start, end, step] = a.length === 1 ? [0, a[0], 1] : [a[0], a[1], a[2] ?? 1];
  const out: number[] = [];
  for (let i = start; step > 0 ? i < end : i > end; i += step) out.push(i);
  return out;
}

function extreme(sign: number, a: unknown[]): unknown {
  const [positional, named] = splitKw(a);
  const items = positional.length === 1 ? [...iter(positional[0])] : positional;
  const dflt = Object.hasOwn(named, "default") ? [named.default] : [];
  if (items.length === 0) return orDefault(dflt, new PyError("ValueError", "arg is an empty sequence"));
  const key = (named.key as ((v: unknown) => any) | undefined) ?? ((v: unknown) => v);
  return items.reduce((best, v) => (sign * (key(v) - key(best)) > 0 ? v : best));
}

/** `open(path)`: a text file read whole (a relative path from the working directory, as Python's). */
function open(...a: unknown[]): object {
  const [path, mode] = args(a, ["file", "mode"], ["r"], false, true);
  if (!/^r?[tb]?$/.test(str(mode))) {
    throw new PyError("ValueError", `open mode ${repr(mode)}: files are only read`);
  }
  const file = {
    name: str(path),
    rewinds: 0,
    /** `seek(0)`: read from the start again (a csv.reader over it too). */
    seek() {
      this.rewinds++;
    },
    close() {},
    __enter__() {
      return this;
    },
    __exit__: () => false,
  };
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(str(path));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw new PyError("OSError", (err as Error).message);
    throw new PyError("FileNotFoundError", `[Errno 2] No such file or directory: ${repr(str(path))}`);
  }
  if (str(mode).includes("b")) return { ...file, read: () => bytes };
  const text = new TextDecoder().decode(bytes);
  const lines = text.split(/(?<=\n)/).filter((l) => l !== "");
  return { ...file, read: () => text, readlines: () => lines, [Symbol.iterator]: () => lines.values() };
}

/** Whether `print` and `logging` stay silent: in a worker, while it runs the top level the command's ran. */
export const output = { quiet: false };

const objectIds = new WeakMap<object, number>(), valueIds = new Map<unknown, number>();
let nextId = 0;

export const builtins = {
  len: (x: unknown) =>
    sizeOf(x) ?? orDefault([], new PyError("TypeError", `object of type '${typeName(x)}' has no len()`)),
  str: (x: unknown = "") => str(x),
  repr,
  int: (x: unknown = 0, base?: number) => {
    if (typeof x !== "string") return Math.trunc(Number(x));
    const t = x.trim();
    const n = base === undefined ? (/^[-+]?\d+$/.test(t) ? Number(t) : NaN) : parseInt(t, base);
    if (Number.isNaN(n)) throw new PyError("ValueError", `invalid literal for int(): ${repr(x)}`);
    return n;
  },
  float: (x: unknown = 0) => {
    // Python's spellings of the float's specials too: `inf`, `-Infinity`, `nan` in any case.
    const text = typeof x === "string"
      ? x.trim().toLowerCase().replace(/^([-+]?)inf(inity)?$/, "$1Infinity")
      : x;
    const n = Number(text);
    if (Number.isNaN(n) && !/^[-+]?nan$/.test(String(text))) {
      throw new PyError("ValueError", `could not convert to float: ${repr(x)}`);
    }
    return n;
  },
  bool: (x: unknown = false) => bool(x),
  list: (x: unknown = []) => [...iter(x)],
  tuple: (x: unknown = []) => Object.freeze([...iter(x)]),
  dict: (...a: unknown[]) => {
    const out: Record<string, unknown> = {};
    DICT_METHODS.update(out, ...(a.length === 0 ? [undefined] : a));
    return out;
  },
  set: (x: unknown = []) => [...new Set(iter(x))],
  range: rangeOf,
  min: (...a: unknown[]) => extreme(-1, a),
  max: (...a: unknown[]) => extreme(1, a),
  sum: (x: unknown, start = 0) => [...iter(x)].reduce((t: number, v) => t + Number(v), start),
  abs: Math.abs,
  ord: (c: string) => c.codePointAt(0),
  chr: (n: number) => String.fromCodePoint(n),
  round: pyRound,
  enumerate: (...a: unknown[]) => {
    const [x, start] = args(a, ["iterable", "start"], [0]) as [unknown, number];
    return [...iter(x)].map((v, i) => tuple(i + start, v));
  },
  zip: (...lists: unknown[]) => {
    const all = lists.map((l) => [...iter(l)]);
    const n = Math.min(...all.map((l) => l.length));
    return rangeOf(n).map((i) => tuple(...all.map((l) => l[i])));
  },
  sorted: sortedOf,
  /** `map` and `filter` as lists, which `list()`, `for` and `sorted` read as Python's iterators. */
  map: (f: (...a: unknown[]) => unknown, ...lists: unknown[]) => builtins.zip(...lists).map((t) => f(...t)),
  filter: (f: ((v: unknown) => unknown) | null, x: unknown) => [...iter(x)].filter((v) => bool(f ? f(v) : v)),
  reversed: (x: unknown) => [...iter(x)].reverse(),
  any: (x: unknown) => [...iter(x)].some(bool),
  all: (x: unknown) => [...iter(x)].every(bool),
  /** `type(x)`: its class, or a builtin's type (`type(x).__name__`, `type(x) is dict`). */
  type: (x: any): unknown =>
    x?.constructor === PyError
      ? exceptionClass(x.pyType)
      : x instanceof Object && !isDict(x) && !Array.isArray(x)
      ? x.constructor
      : TYPES[typeName(x)],
  isinstance: (x: unknown, t: unknown) => (Array.isArray(t) ? t : [t]).some((one) => isType(x, one)),
  // On stdout, as Python's, `--json` or not (loadlab's own lines go to stderr then).
  print: (...a: unknown[]) =>
    output.quiet || Deno.stdout.writeSync(new TextEncoder().encode(`${splitKw(a)[0].map(str).join(" ")}\n`)),
  /** An object's identity, constant for its life: an address-like int, 16 apart, as CPython's. */
  id: (x: unknown) => {
    const ids = x !== null && typeof x === "object" || typeof x === "function" ? objectIds : valueIds;
    if (!ids.has(x as object)) ids.set(x as object, 140_000_000_000_000 + 16 * nextId++);
    return ids.get(x as object)!;
  },
  hasattr: (x: any, name: string) => x != null && name in Object(x),
  getattr: (x: any, name: string, ...dflt: unknown[]) => {
    const v = x != null && (name in Object(x) || x.__getattr___py) ? x[name] : dflt[0];
    return typeof v === "function" && name in Object(x) && !Object.hasOwn(x, name) ? v.bind(x) : v;
  },
  setattr: (x: any, name: string, v: unknown) => void (x[name] = v),
  next: (it: Iterator<unknown>, ...dflt: unknown[]) => {
    const r = it.next();
    return r.done ? orDefault(dflt, new PyError("StopIteration")) : r.value;
  },
  open,
  ...Object.fromEntries(
    ("Exception ValueError KeyError IndexError TypeError RuntimeError StopIteration AttributeError " +
      "AssertionError ZeroDivisionError LookupError ArithmeticError OSError FileNotFoundError " +
      "PermissionError TimeoutError NotImplementedError").split(" ")
      .map((n) => [n, exceptionClass(n)]),
  ),
};

/** `isinstance(x, t)`: a builtin type by the name of `x`'s (an int is a float too), else a class. */
function isType(x: unknown, t: unknown): boolean {
  const name = Object.keys(TYPES).find((k) => TYPES[k] === t);
  // A number is a float too (JavaScript has one kind); a bool is an int, as Python's subclass.
  if (name !== undefined) {
    return typeName(x) === name || (name === "float" && typeof x === "number") ||
      (name === "int" && x === !!x);
  }
  return typeof t === "function" && x instanceof (t as new () => unknown);
}

const TYPES: Record<string, unknown> = Object.fromEntries(
  "str int float bool list tuple dict".split(" ").map((n) => [n, builtins[n as keyof typeof builtins]]),
);
