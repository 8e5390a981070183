/**
 * @module
 * The Python modules a locustfile of the subset imports (`MODULES`), each with the functions teams call;
 * `re` on JavaScript's regular expressions with Python's spellings translated. Any other is refused.
 */
import { args, builtins, exceptionClass, iter, Kw, mapping, mod, output } from "./py.ts";
import { isDict, matches, MISSING, PyError, repr, str, tuple } from "./py.ts";
import { parse } from "../k6/jslib/papaparse.ts";
import { existsSync, mkdirSync } from "node:fs";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { Buffer } from "node:buffer";
import { basename, dirname, join, resolve } from "node:path";
import { scriptEnv } from "../isolate_inputs.ts";

/** CPython's `abs(hash(x))` of a number: an integer itself, a fraction `n * 2**-k` modulo 2**61 - 1. */
function floatHash(x: number): bigint {
  let m = Math.abs(x), k = 0n;
  for (; !Number.isInteger(m); k++) m *= 2;
  const p = (1n << 61n) - 1n;
  return k === 0n ? BigInt(m) : (BigInt(m) % p) * (1n << (61n - k % 61n)) % p;
}

/**
 * Python's `random.Random`: CPython's Mersenne Twister once seeded (`seed(42)` gives its numbers), else
 * `Math.random`'s words; each draw made from 32-bit words by CPython's own algorithm (choice, sample, ...).
 */
class Random {
  #mt: Uint32Array | null = null;
  #i = 624;
  constructor(seed: unknown = null) {
    this.seed(seed);
  }
  seed(a: unknown = null): void {
    if (a === null) return void (this.#mt = null);
    // An int's 32-bit words, low first; a float's CPython hash; a str its UTF-8 bytes then their SHA-512.
    const bytes = typeof a === "string" ? new TextEncoder().encode(a) : null;
    let n = bytes === null ? floatHash(Number(a)) : BigInt(
      `0x${Buffer.from([...bytes, ...createHash("sha512").update(bytes).digest()]).toString("hex")}`,
    );
    const key: number[] = [];
    do {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    } while (n > 0n);
    const mt = this.#mt = new Uint32Array(624);
    mt[0] = 19650218;
    for (let i = 1; i < 624; i++) mt[i] = Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
    let i = 1, j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j;
      if (++i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
      if (++j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i;
      if (++i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.#i = 624;
  }
  #word(): number {
    const mt = this.#mt;
    if (mt === null) return Math.floor(Math.random() * 2 ** 32);
    if (this.#i >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.#i = 0;
    }
    let y = mt[this.#i++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    return (y ^ (y >>> 18)) >>> 0;
  }
  random(): number {
    return ((this.#word() >>> 5) * 67108864 + (this.#word() >>> 6)) / 9007199254740992;
  }
  /** CPython's `_randbelow`: the fewest bits that hold `n`, drawn until below it. */
  #below(n: number): number {
    const k = n.toString(2).length;
    let r;
    do r = k > 32 ? Math.floor(this.random() * 2 ** k) : this.#word() >>> (32 - k); while (r >= n);
    return r;
  }
  randrange(start: number, stop: number | null = null, step = 1): number {
    if (stop === null || stop === undefined) [start, stop] = [0, start];
    const n = Math.ceil((stop - start) / step);
    if (n <= 0) throw new PyError("ValueError", `empty range in randrange(${start}, ${stop})`);
    return start + step * this.#below(n);
  }
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }
  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }
  expovariate(lambda: number): number {
    return -Math.log(1 - this.random()) / lambda;
  }
  gauss(mu = 0, sigma = 1): number {
    return mu + sigma * Math.sqrt(-2 * Math.log(1 - this.random())) * Math.cos(2 * Math.PI * this.random());
  }
  choice<T>(items: Iterable<T>): T {
    const list = [...iter(items)];
    if (list.length === 0) throw new PyError("IndexError", "cannot choose from an empty sequence");
    return list[this.#below(list.length)];
  }
  choices(items: unknown, ...rest: unknown[]): unknown[] {
    const [weights, k] = args(rest, ["weights", "k"], [null, 1]) as [number[] | null, number];
    const list = [...iter(items)], cum: number[] = [];
    for (const w of weights ?? []) cum.push((cum.at(-1) ?? 0) + w);
    return builtins.range(k).map(() => {
      if (weights === null) return list[Math.floor(this.random() * list.length)];
      const r = this.random() * cum[cum.length - 1], at = cum.findIndex((c) => c > r);
      return list[at < 0 ? list.length - 1 : Math.min(at, list.length - 1)];
    });
  }
  sample(items: unknown, ...rest: unknown[]): unknown[] {
    const [k] = args(rest, ["k"]) as [number], pool = [...iter(items)], n = pool.length;
    if (k > n || k < 0) throw new PyError("ValueError", "Sample larger than population or is negative");
    // CPython picks from a shrinking pool, or for a few of many draws until unseen; both as it does.
    const setsize = 21 + (k > 5 ? 4 ** Math.ceil(Math.log(k * 3) / Math.log(4)) : 0);
    const out: unknown[] = [], seen = new Set<number>();
    for (let i = 0; i < k; i++) {
      if (n <= setsize) {
        const j = this.#below(n - i);
        out.push(pool[j]);
        pool[j] = pool[n - i - 1];
        continue;
      }
      let j = this.#below(n);
      while (seen.has(j)) j = this.#below(n);
      seen.add(j);
      out.push(pool[j]);
    }
    return out;
  }
  shuffle(list: unknown[]): void {
    for (let i = list.length - 1; i > 0; i--) {
      const j = this.#below(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
  }
}

const shared = new Random();
const random: Record<string, unknown> = { Random: (seed?: unknown) => new Random(seed) };
for (const name of Object.getOwnPropertyNames(Random.prototype)) {
  if (name !== "constructor") random[name] = (Random.prototype as any)[name].bind(shared);
}
const choice = random.choice as <T>(items: Iterable<T>) => T;

const LOWER = "abcdefghijklmnopqrstuvwxyz", UPPER = LOWER.toUpperCase(), DIGITS = "0123456789";
const string = {
  ascii_lowercase: LOWER,
  ascii_uppercase: UPPER,
  ascii_letters: LOWER + UPPER,
  digits: DIGITS,
  hexdigits: DIGITS + "abcdefABCDEF",
  punctuation: "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
};

/** `json.dumps` as Python writes it (`", "` and `": "` separators), its keys sorted with `sort_keys`. */
function dumps(value: unknown, ...rest: unknown[]): string {
  const [indent, sortKeys] = args(rest, ["indent", "sort_keys"], [null, false], false, true);
  const sorted = (_: string, v: any) => isDict(v) ? Object.fromEntries(Object.entries(v).sort()) : v;
  const text = JSON.stringify(value, sortKeys ? sorted : undefined, indent as number ?? undefined);
  const separators = /("(?:[^"\\]|\\.)*")|([,:])/g;
  return indent !== null ? text : text.replace(separators, (m, s) => s ?? (m === "," ? ", " : ": "));
}

/** `json.loads`: a JSON text (or its bytes) read, its error a JSONDecodeError. */
export function loads(text: unknown): unknown {
  try {
    return JSON.parse(typeof text === "string" ? text : new TextDecoder().decode(text as Uint8Array));
  } catch (err) {
    throw new PyError("JSONDecodeError", (err as Error).message);
  }
}

const json = {
  dumps,
  loads,
  load: (f: { read(): string }) => loads(f.read()),
  JSONDecodeError: exceptionClass("JSONDecodeError"),
};

const time = {
  time: () => (performance.timeOrigin + performance.now()) / 1000,
  monotonic: () => performance.now() / 1000,
  perf_counter: () => performance.now() / 1000,
  time_ns: () => Date.now() * 1e6,
  /** runtime.ts's, which waits as a greenlet waits (it sets it as it loads, before any file runs). */
  sleep: (_seconds: number): unknown => undefined,
};

/** `uuid4()`: `str()` its text (no dict's repr), `.hex` its digits. */
const uuid = {
  uuid4: (id = crypto.randomUUID()) => Object.assign(new String(id), { hex: id.replaceAll("-", "") }),
};

const itertools = {
  count: function* (start = 0, step = 1) {
    for (let i = start;; i += step) yield i;
  },
  cycle: function* (items: unknown) {
    const list = [...iter(items)];
    if (list.length === 0) return;
    for (;;) yield* list;
  },
  chain: (...lists: unknown[]) => lists.flatMap((l) => [...iter(l)]),
  islice: (items: Iterable<unknown>, a: number, b?: number) => {
    const [start, end] = b === undefined ? [0, a] : [a, b];
    const out: unknown[] = [];
    let i = 0;
    for (const v of iter(items)) {
      if (i >= end) break;
      if (i++ >= start) out.push(v);
    }
    return out;
  },
  product: (...lists: unknown[]) =>
    lists.map((l) => [...iter(l)]).reduce<unknown[][]>(
      (acc, l) => acc.flatMap((a) => l.map((v) => [...a, v])),
      [[]],
    ).map((a) => tuple(...a)),
};

const environ = mapping((k) => scriptEnv()[k]);

const os = {
  environ,
  getenv: environ.get,
  path: { join, dirname, basename, abspath: resolve, exists: existsSync, isfile: existsSync },
};

/**
 * python-dotenv for a module in `dir`: `load_dotenv()` reads the `.env` nearest it, up to the root (a path
 * given: that file), and sets each `KEY=value` the environment lacks (all of them with `override=True`).
 */
export function dotenvAt(dir: string) {
  const find_dotenv = (name = ".env") => {
    for (let d = resolve(dir);; d = dirname(d)) {
      if (existsSync(join(d, name))) return join(d, name);
      if (dirname(d) === d) return "";
    }
  };
  const dotenv_values = (path: unknown = null): Record<string, string> => {
    const file = path === null ? find_dotenv() : str(path);
    if (file === "" || !existsSync(file)) return {};
    const pairs = Deno.readTextFileSync(file).split(/\r?\n/).map((l) =>
      l.match(/^\s*(?:export\s+)?([\w.-]+)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^#]*?)\s*(?:#.*)?$/)
    ).filter((m) => m !== null);
    // Quotes dropped, and in double quotes `\n` is a newline, as python-dotenv reads a value.
    return Object.fromEntries(pairs.map(([, k, v]) => {
      const inner = /^['"]/.test(v) ? v.slice(1, -1) : v;
      return [k, v.startsWith('"') ? inner.replaceAll("\\n", "\n") : inner];
    }));
  };
  const load_dotenv = (...a: unknown[]) => {
    const names = ["dotenv_path", "stream", "verbose", "override"];
    const [path, , , override] = args(a, names, [null, null, false, false]);
    const values = Object.entries(dotenv_values(path));
    for (const [k, v] of values) if (override || Deno.env.get(k) === undefined) Deno.env.set(k, v);
    return values.length > 0;
  };
  return { load_dotenv, dotenv_values, find_dotenv };
}

const { ceil, floor, sqrt, exp, log2, log10, pow, trunc, hypot, sin, cos, tan, atan, atan2, PI: pi } = Math;
const fsum = (xs: unknown) => [...iter(xs)].reduce((t: number, x) => t + Number(x), 0);
const math = {
  ...{ ceil, floor, sqrt, exp, log2, log10, pow, trunc, hypot, sin, cos, tan, atan, atan2, pi, fsum },
  ...{ e: Math.E, tau: 2 * pi, inf: Infinity, nan: NaN, fabs: Math.abs, isnan: Number.isNaN },
  log: (x: number, base?: number) => Math.log(x) / (base === undefined ? 1 : Math.log(base)),
  isinf: (x: number) => Math.abs(x) === Infinity,
  isfinite: Number.isFinite,
};
/** `statistics`' mean, median and deviations of a list, as a listener keeps its own response times. */
const mean = (xs: unknown) => fsum(xs) / [...iter(xs)].length;
const middle = (xs: number[]) =>
  [...iter(xs)].sort((a, b) => a - b).slice((xs.length - 1) >> 1, (xs.length >> 1) + 1);
const deviation = (xs: number[], less: number) =>
  sqrt(fsum(xs.map((x) => (x - mean(xs)) ** 2)) / (xs.length - less));
const statistics = {
  ...{ mean, fmean: mean, median: (xs: number[]) => mean(middle(xs)) },
  ...{
    stdev: (xs: number[]) => deviation([...iter(xs)], 1),
    pstdev: (xs: number[]) => deviation([...iter(xs)], 0),
  },
};

export const LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"];

/** A `logging` function at `level`, printing when it is at or above `logging.level` (Locust's `-L`). */
function log(level: string) {
  return (message: unknown, ...rest: unknown[]) => {
    if (output.quiet || LEVELS.indexOf(level) < LEVELS.indexOf(logging.level)) return;
    const values = rest.filter((v) => !(v instanceof Kw));
    const text = values.length > 0 ? mod(str(message), values) : str(message);
    if (logging.file === undefined) return console.error(`${level}: ${text}`);
    Deno.writeTextFileSync(logging.file, `${level}: ${text}\n`, { append: true });
  };
}

const logging = {
  level: "INFO",
  file: undefined as string | undefined,
  ...Object.fromEntries(LEVELS.slice(0, 4).map((l) => [l.toLowerCase(), log(l)])),
  exception: log("ERROR"),
  getLogger: () => logging,
};

/** Locust's `--logfile`: the `logging` lines go to `file`, made (and its folder) when missing. */
export function logTo(file: string) {
  mkdirSync(dirname(file), { recursive: true });
  Deno.writeTextFileSync(file, "", { append: true });
  logging.file = file;
}

const FLAGS: Record<number, string> = { 2: "i", 8: "m", 16: "s" };
const RE_FLAGS = { IGNORECASE: 2, I: 2, MULTILINE: 8, M: 8, DOTALL: 16, S: 16 };

/** Python's pattern as JavaScript's; `extra` flags: `g` to find every match, `y` anchored where it starts. */
function regex(pattern: unknown, flags: unknown = 0, extra = ""): RegExp {
  if (pattern instanceof Pattern) return regex(pattern.pattern, pattern.flags, extra);
  let source = str(pattern), f = extra;
  for (const [bit, letter] of Object.entries(FLAGS)) if (Number(flags) & Number(bit)) f += letter;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline !== null) {
    if (/[aLux]/.test(inline[1])) {
      throw new PyError("error", `(?${inline[1]}): not a flag loadlab's re knows`);
    }
    source = source.slice(inline[0].length), f += inline[1];
  }
  source = source.replace(
    /\\[AZ]|\(\?P<|\(\?P=(\w+)\)/g,
    (m, name) =>
      m === "\\A" ? "(?<![\\s\\S])" : m === "\\Z" ? "(?![\\s\\S])" : m === "(?P<" ? "(?<" : `\\k<${name}>`,
  );
  try {
    return new RegExp(source, [...new Set(f)].join(""));
  } catch (err) {
    throw new PyError("error", (err as Error).message);
  }
}

class Match {
  constructor(readonly m: RegExpExecArray) {}
  group(...ids: unknown[]): unknown {
    if (ids.length > 1) return tuple(...ids.map((g) => this.group(g)));
    const g = ids[0] ?? 0, named = typeof g === "string";
    if (named ? !Object.hasOwn(this.m.groups ?? {}, g) : !(Number(g) >= 0 && Number(g) < this.m.length)) {
      throw new PyError("IndexError", "no such group");
    }
    return (named ? this.m.groups![g] : this.m[Number(g)]) ?? null;
  }
  __getitem__ = (g: unknown) => this.group(g);
  groups = (d: unknown = null) => tuple(...this.m.slice(1).map((v) => v ?? d));
  groupdict = (d: unknown = null) =>
    Object.fromEntries(Object.entries(this.m.groups ?? {}).map(([k, v]) => [k, v ?? d]));
}

/** `re.compile`'s pattern: the module's functions with the pattern given. */
class Pattern {
  constructor(readonly pattern: string, readonly flags: number) {
    for (const f of ["search", "match", "fullmatch", "findall", "sub", "split"] as const) {
      Object.assign(this, { [f]: (...a: unknown[]) => re[f](this, ...a) });
    }
  }
}

function patternArgs(a: unknown[], more: string[] = [], defaults: unknown[] = []) {
  return args(a, ["pattern", "string", ...more, "flags"], [...defaults, 0]) as [unknown, unknown, ...any[]];
}

function matched(a: unknown[], extra: string, wrap = (r: RegExp) => r): Match | null {
  const [p, s, flags] = patternArgs(a);
  const m = wrap(regex(p, flags, extra)).exec(str(s));
  return m === null ? null : new Match(m);
}

const re = {
  ...RE_FLAGS,
  compile: (p: unknown, flags = 0) => new Pattern(str(p), flags),
  search: (...a: unknown[]) => matched(a, ""),
  match: (...a: unknown[]) => matched(a, "y"),
  fullmatch: (...a: unknown[]) => matched(a, "y", (r) => new RegExp(`(?:${r.source})(?![\\s\\S])`, r.flags)),
  findall: (...a: unknown[]) => {
    const [p, s, flags] = patternArgs(a);
    return [...str(s).matchAll(regex(p, flags, "g"))].map((m) =>
      m.length === 1 ? m[0] : m.length === 2 ? m[1] ?? "" : tuple(...m.slice(1).map((v) => v ?? ""))
    );
  },
  sub: (...a: unknown[]) => {
    const names = ["pattern", "repl", "string", "count", "flags"];
    const [p, repl, s, count, flags] = args(a, names, [0, 0]) as any[];
    let left = Number(count) || Infinity;
    return str(s).replace(regex(p, flags, "g"), (...found) => {
      if (left-- <= 0) return found[0];
      const groups = typeof found.at(-1) === "object" ? found.pop() : undefined;
      const m = Object.assign(found.slice(0, -2), { groups }) as unknown as RegExpExecArray;
      if (typeof repl === "function") return str(repl(new Match(m)));
      return str(repl).replace(/\\(\d+)|\\g<(\w+)>/g, (_, n, g) => (n ? m[Number(n)] : m.groups?.[g]) ?? "");
    });
  },
  split: (...a: unknown[]) => {
    const [p, s, maxsplit, flags] = patternArgs(a, ["maxsplit"], [0]);
    const text = str(s), out: unknown[] = [];
    let at = 0, n = 0;
    for (const m of text.matchAll(regex(p, flags, "g"))) {
      if (maxsplit > 0 && n++ >= maxsplit) break;
      out.push(text.slice(at, m.index), ...m.slice(1).map((v) => v ?? null));
      at = m.index + m[0].length;
    }
    return [...out, text.slice(at)];
  },
  escape: (s: unknown) => str(s).replace(/[.*+?^${}()|[\]\\\-/#&~\s]/g, "\\$&"),
};

/** `csv.reader(f)` (rows as lists) and `csv.DictReader(f)` (dicts by the first row's names) over a file. */
function csvRows(f: unknown, a: unknown[]): string[][] {
  const [delimiter] = args(a, ["delimiter"], [","], false, true) as [string];
  const text = typeof (f as { read?: unknown }).read === "function"
    ? (f as { read(): string }).read()
    : [...iter(f)].join("\n");
  return parse(text, { delimiter, skipEmptyLines: true }).data as string[][];
}

/** `csv.reader`'s rows, from the first again after its file's `seek(0)`. */
class CsvReader {
  #at = 0;
  #rewinds: number | undefined;
  constructor(private readonly f: { rewinds?: number }, private readonly rows: string[][]) {
    this.#rewinds = f.rewinds;
  }
  [Symbol.iterator]() {
    return this;
  }
  next(): IteratorResult<string[]> {
    if (this.f.rewinds !== this.#rewinds) this.#rewinds = this.f.rewinds, this.#at = 0;
    const row = this.rows[this.#at++];
    return row === undefined ? { value: undefined, done: true } : { value: row, done: false };
  }
}

const csv = {
  reader: (f: { rewinds?: number }, ...a: unknown[]) => new CsvReader(f, csvRows(f, a)),
  DictReader: function* (f: unknown, ...a: unknown[]) {
    const [names, ...rows] = csvRows(f, a);
    for (const r of rows) yield Object.fromEntries(names.map((n, i) => [n, r[i] ?? null]));
  },
};

/** Bytes as Python's `bytes` functions take them: a `str` (a `b"..."` literal) as UTF-8. */
const bytesOf = (x: unknown) => x instanceof Uint8Array ? x : new TextEncoder().encode(str(x));
const b64 = (x: unknown) => Buffer.from(bytesOf(x)).toString("base64");
/** Node's base64 decoder reads the URL-safe alphabet too. */
const fromB64 = (x: unknown) => new Uint8Array(Buffer.from(new TextDecoder().decode(bytesOf(x)), "base64"));
const base64 = {
  b64encode: (x: unknown) => bytesOf(b64(x)),
  b64decode: fromB64,
  urlsafe_b64encode: (x: unknown) => bytesOf(b64(x).replaceAll("+", "-").replaceAll("/", "_")),
  urlsafe_b64decode: fromB64,
};

/** A `hashlib` hash (an `hmac` with `key`): its data kept, so `digest()` may be read more than once. */
class Hash {
  #data: Uint8Array[] = [];
  constructor(readonly name: string, data: unknown, readonly key?: Uint8Array) {
    if (data != null) this.update(data);
  }
  update(data: unknown): void {
    this.#data.push(bytesOf(data));
  }
  digest(): Uint8Array {
    const h = this.key ? createHmac(this.name, this.key) : createHash(this.name);
    return new Uint8Array(this.#data.reduce((h, d) => h.update(d), h).digest());
  }
  hexdigest = () => Buffer.from(this.digest()).toString("hex");
}
const hashlib = Object.fromEntries(
  "md5 sha1 sha224 sha256 sha384 sha512".split(" ").map((n) => [n, (data?: unknown) => new Hash(n, data)]),
);
const hmac = {
  new: (key: unknown, msg: unknown = null, mod: unknown = hashlib.md5) =>
    new Hash(typeof mod === "string" ? mod : (mod as () => Hash)().name, msg, bytesOf(key)),
};

/** Where each of strftime's fields is in an ISO time (`%Y` four digits, the others two). */
const ISO_AT = [["Y", 0], ["y", 2], ["m", 5], ["d", 8], ["H", 11], ["M", 14], ["S", 17]] as const;
/** `datetime`'s `datetime` and `timedelta` on milliseconds of the wall clock (local for `now()`). */
class DateTime {
  constructor(readonly ms: number, readonly us = 0, readonly tz = "") {}
  valueOf = () => this.ms;
  timestamp = () => this.ms / 1000;
  __add__ = (d: TimeDelta) => new DateTime(this.ms + d.ms, this.us, this.tz);
  __sub__ = (d: DateTime | TimeDelta) =>
    d instanceof DateTime ? new TimeDelta(this.ms - d.ms) : this.__add__(new TimeDelta(-d.ms));
  strftime(format: unknown): string {
    const t = new Date(this.ms).toISOString(), us = Number(t.slice(20, 23)) * 1000 + this.us;
    const fields: Record<string, string> = {
      f: String(us).padStart(6, "0"),
      z: this.tz.replace(":", ""),
      "%": "%",
    };
    for (const [c, at] of ISO_AT) fields[c] = t.slice(at, c === "Y" ? 4 : at + 2);
    return str(format).replace(/%(.)/g, (m, c: string) => fields[c] ?? m);
  }
  isoformat = (sep: unknown = "T") => this.strftime(`%Y-%m-%d${str(sep)}%H:%M:%S.%f`) + this.tz;
  toString = () => this.isoformat(" ");
}
class TimeDelta {
  constructor(readonly ms: number) {}
  valueOf = () => this.ms;
  total_seconds = () => this.ms / 1000;
}
const UNITS_MS = [86400_000, 1000, 0.001, 1, 60_000, 3600_000, 7 * 86400_000];
const UNITS = "days seconds microseconds milliseconds minutes hours weeks".split(" ");
const wall = (ms: number, tz: unknown) =>
  tz ? new DateTime(ms, 0, "+00:00") : new DateTime(ms - new Date(ms).getTimezoneOffset() * 60_000);
const datetime = {
  datetime: Object.assign((...a: number[]) => {
    const [y, mo, d, h = 0, mi = 0, s = 0, us = 0] = a;
    return new DateTime(Date.UTC(y, mo - 1, d, h, mi, s, Math.floor(us / 1000)), us % 1000);
  }, {
    now: (tz: unknown = null) => wall(Date.now(), tz),
    utcnow: () => new DateTime(Date.now()),
    fromtimestamp: (s: number, tz: unknown = null) => wall(s * 1000, tz),
  }),
  timedelta: (...a: unknown[]) =>
    new TimeDelta(
      args(a, UNITS, UNITS.map(() => 0)).reduce((ms: number, n, i) => ms + Number(n) * UNITS_MS[i], 0),
    ),
  timezone: { utc: "UTC" },
};

/** `contextlib.contextmanager`: what the block raised is thrown at its generator's `yield`. */
const contextlib = {
  suppress: (...types: unknown[]) => ({
    __enter__: () => null,
    __exit__: (_type: unknown, err: unknown) => err !== null && matches(err, ...types),
  }),
  contextmanager: (fn: (...a: unknown[]) => Generator | AsyncGenerator) =>
    function (this: unknown, ...a: unknown[]) {
      const g = fn.apply(this, a);
      // An async generator's steps (a method's, or one that sends) are promises: the `with` awaits them.
      const after = (
        step: any,
        then: (r: IteratorResult<unknown>) => unknown,
        fail?: (e: unknown) => unknown,
      ) => step instanceof Promise ? step.then(then, fail) : then(step);
      const raised = (err: unknown) => (thrown: unknown) => {
        if (thrown !== err) throw thrown;
        return false;
      };
      return {
        __enter__: () => after(g.next(), (r) => r.value),
        __exit__(_type: unknown, err: unknown) {
          if (err === null) return after(g.next(), () => false);
          try {
            return after(g.throw(err), () => true, raised(err));
          } catch (thrown) {
            return raised(err)(thrown);
          }
        },
      };
    },
};

/** A dict (its `__missing__` hidden from its keys) whose missing key's value `missing` gives. */
function missingDict(missing: (d: Record<string, unknown>, key: string) => unknown) {
  const d: Record<string, unknown> = {};
  return Object.defineProperty(d, MISSING, { value: (key: string) => missing(d, key) });
}

/** `queue`'s exceptions; its `Queue` is runtime.ts's (one for the run, a wait a greenlet's). */
const queue: Record<string, unknown> = { Empty: exceptionClass("Empty"), Full: exceptionClass("Full") };

const collections = {
  defaultdict: (factory: () => unknown) => missingDict((d, key) => d[key] = factory()),
  Counter: (items: Iterable<unknown> = []) => {
    const d = missingDict(() => 0) as Record<string, number>;
    for (const x of iter(items)) d[str(x)] = (d[str(x)] ?? 0) + 1;
    const most_common = (n?: number) =>
      Object.entries(d).sort((a, b) => b[1] - a[1]).slice(0, n ?? undefined).map(([k, v]) => tuple(k, v));
    return Object.defineProperty(d, "most_common", { value: most_common });
  },
  deque: (...a: unknown[]) => {
    const [items, maxlen] = args(a, ["iterable", "maxlen"], [[], null]) as [unknown, number | null];
    const d = [...iter(items)];
    return Object.defineProperty(d.slice(maxlen === null ? 0 : Math.max(0, d.length - maxlen)), "maxlen", {
      value: maxlen,
    });
  },
  OrderedDict: (...a: unknown[]) => builtins.dict(...a),
  namedtuple: (_name: string, fields: string | string[]) => {
    const names = typeof fields === "string" ? fields.split(/[\s,]+/).filter(Boolean) : fields;
    return (...a: unknown[]) => {
      const values = args(a, names);
      return Object.freeze(Object.assign(values, Object.fromEntries(names.map((n, i) => [n, values[i]]))));
    };
  },
};

/** A class body's annotated names in order (`sku: str`), as the converter records them for `dataclass`. */
export const FIELDS = Symbol.for("loadlab.py.fields");
/** A class body's `name: type` (and `name: type = value`): its name recorded after its bases'. */
export function annotate(cls: Cls, name: string): void {
  if (!Object.hasOwn(cls, FIELDS)) cls[FIELDS] = [...cls[FIELDS] ?? []];
  if (!cls[FIELDS]!.includes(name)) cls[FIELDS]!.push(name);
}
class Field {
  constructor(readonly given: Record<string, unknown>) {}
}
type Cls = { prototype: Record<string, unknown>; [FIELDS]?: string[] } & Record<string | symbol, unknown>;
/** A dataclass's fields: each one's default, or its factory (`field(default_factory=...)`), or neither. */
const SPECS = Symbol("dataclass fields");
type Spec = { default?: unknown; factory?: () => unknown };

/** `@dataclass` (or `@dataclass(...)`): an `__init__` of its fields in order, their defaults or factories. */
function dataclass(...a: unknown[]): unknown {
  if (typeof a[0] !== "function") return (cls: Cls) => dataclass(cls);
  const cls = a[0] as unknown as Cls, names = cls[FIELDS] ?? [];
  const specs = new Map(cls[SPECS] as Map<string, Spec> | undefined);
  for (const n of names.filter((n) => Object.hasOwn(cls, n) || !specs.has(n))) {
    const v = cls[n], given = v instanceof Field ? v.given : Object.hasOwn(cls, n) ? { default: v } : {};
    if (v instanceof Field) delete cls[n], delete cls.prototype[n];
    if ("default" in given) cls[n] = cls.prototype[n] = given.default;
    specs.set(n, { ...given, factory: given.default_factory as Spec["factory"] });
  }
  cls[SPECS] = specs;
  const defaults = names.map((n) => specs.get(n)!).filter((s) => "default" in s || s.factory)
    .map((s) => "default" in s ? s.default : s);
  cls.prototype.__init___py = function (this: Record<string, unknown>, ...given: unknown[]) {
    args(given, names, defaults).forEach((v, i) => {
      this[names[i]] = (v as Spec)?.factory !== undefined && v === specs.get(names[i])
        ? (v as Spec).factory!()
        : v;
    });
  };
  cls.prototype.toString = function (this: Record<string, unknown>) {
    const shown = (v: unknown) => v instanceof Enum ? `<${v}: ${repr(v.value)}>` : repr(v);
    return `${(cls as unknown as { name: string }).name}(${
      names.map((n) => `${n}=${shown(this[n])}`).join(", ")
    })`;
  };
  return cls;
}

const dataclasses = {
  dataclass,
  field: (...a: unknown[]) => new Field((args(a, [], [], false, true) as [Record<string, unknown>])[0]),
  asdict: (o: Record<string, unknown> & { constructor: Cls }) =>
    Object.fromEntries((o.constructor[FIELDS] ?? []).map((n) => [n, o[n]])),
};

/** `enum.Enum`: a class body's attributes are its members (`Kind.BOOK.name`, `.value`), in order. */
class Enum {
  declare name: string;
  declare value: unknown;
  static __members: Enum[];
  /** `Kind("book")`: the member of that value. */
  constructor(value: unknown) {
    const found = (new.target as typeof Enum).__members?.find((m) => m.value === value);
    if (found === undefined) {
      throw new PyError("ValueError", `${repr(value)} is not a valid ${new.target.name}`);
    }
    return found;
  }
  /** A class attribute made a member (runtime.ts's `attr` asks). */
  static __member(name: string, value: unknown): Enum {
    const m = Object.assign(Object.create(this.prototype), { name, value });
    (Object.hasOwn(this, "__members") ? this.__members : this.__members = []).push(m);
    return m;
  }
  static [Symbol.iterator]() {
    return (this.__members ?? [])[Symbol.iterator]();
  }
  toString() {
    return `${this.constructor.name}.${this.name}`;
  }
}

/** gevent's sleep, the user's own as time's is; its greenlets are refused (convert.ts). */
const gevent = { sleep: (seconds: number) => time.sleep(seconds) };

/** urllib3's warnings off (loadlab warns of no certificate); a user's `pool_manager` (loadlab's pool). */
const urllib3 = { disable_warnings: () => null, PoolManager: () => ({}) };

const pct = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
/** `quote`: all but letters, digits, `_.-~` and `safe` percent-encoded (UTF-8), as Python's. */
const quote = (...a: unknown[]) => {
  const [s, safe] = args(a, ["string", "safe"], ["/"]);
  return [...str(safe)].reduce(
    (o, c) => o.replaceAll(pct(c), c),
    encodeURIComponent(str(s)).replace(/[!'()*]/g, pct),
  );
};
const quote_plus = (...a: unknown[]) => {
  const [s, safe] = args(a, ["string", "safe"], [""]);
  return quote(s, `${str(safe)} `).replaceAll(" ", "+");
};
/** `urlencode` of a dict or of pairs (with `doseq=True` a list's items each a pair), as Python's. */
function urlencode(...a: unknown[]): string {
  const [query, doseq] = args(a, ["query", "doseq"], [false]) as [Record<string, unknown>, boolean];
  const pairs = Array.isArray(query) ? query : Object.entries(query);
  return pairs.flatMap(([k, v]) => (doseq ? [v].flat() : [v]).map((x) => `${quote_plus(k)}=${quote_plus(x)}`))
    .join("&");
}
const urllib = { parse: { quote, quote_plus, urlencode } };
/** `secrets`' tokens; `functools.wraps` (the wrapped function's attributes, a task's weight, kept). */
const secrets = { token_hex: (n = 32) => randomBytes(n).toString("hex"), choice };
const functools = {
  wraps: (fn: { name: string }) => (wrapper: object) =>
    Object.defineProperty(Object.assign(wrapper, fn), "name", { value: fn.name }),
  /** `partial(f, *a, **kw)`: its arguments first, its keywords under the call's. */
  partial: (f: (...a: unknown[]) => unknown, ...given: unknown[]) => (...a: unknown[]) => {
    const [before, kw] = args(given, [], [], true, true) as [unknown[], object];
    const [after, more] = args(a, [], [], true, true) as [unknown[], object];
    return f(...before, ...after, new Kw({ ...kw, ...more }));
  },
};
const requestsExceptions = Object.fromEntries(
  ["HTTPError", "ConnectionError"].map((n) => [n, exceptionClass(n)]),
);
/** `pathlib.Path`: a path of its parts, `/` adding one, its file read as `open` reads one. */
const Path = (...parts: unknown[]): object => {
  const path = join(...parts.map(str));
  return {
    name: basename(path),
    get parent() {
      return Path(dirname(path));
    },
    open: (...a: unknown[]) => builtins.open(path, ...a),
    read_text: () => (builtins.open(path) as { read(): unknown }).read(),
    exists: () => existsSync(path),
    resolve: () => Path(resolve(path)),
    __truediv__: (part: unknown) => Path(path, part),
    toString: () => path,
  };
};
/** `io`'s in-memory files: what `read()` gives (an upload's content, a csv reader's text). */
const memoryFile = (value: unknown = "") => ({ read: () => value, getvalue: () => value, close() {} });
const io = { BytesIO: memoryFile, StringIO: memoryFile };
const copy = { copy: (x: any) => Array.isArray(x) ? [...x] : { ...x }, deepcopy: structuredClone };

export const MODULES: Record<string, Record<string, unknown>> = Object.assign(
  { random, string, json, time, uuid, itertools, os, math, logging, re, csv, datetime, base64, urllib },
  { secrets, functools, copy, io, hashlib, hmac, contextlib, gevent, collections, urllib3, dataclasses },
  { enum: { Enum }, queue, statistics, dotenv: dotenvAt("."), pathlib: { Path } },
  { "os.path": os.path, "urllib.parse": urllib.parse, "requests.exceptions": requestsExceptions },
);
