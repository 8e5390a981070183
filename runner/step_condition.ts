/**
 * @module
 * A step's `ifTrue` as Artillery's filtrex 0.5 reads it: `or`, `and`, `not`, comparisons (`==` loose),
 * `+ - * / % ^`, numbers, "double-quoted" strings and names, compiled once into closures (no eval).
 */

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)\b|([a-zA-Z][.a-zA-Z0-9_]*)|"([^"]*)"|(==|!=|>=|<=|[<>()+\-*/%^]))\s*/y;
const WORDS = new Set(["and", "or", "not"]);
/** Binary operators by rising precedence, each level left-associative as filtrex's grammar has them. */
const LEVELS = [["or"], ["and"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"], ["^"]];
// deno-lint-ignore no-explicit-any
const BINARY: Record<string, (a: any, b: any) => unknown> = {
  or: (a, b) => Number(a || b),
  and: (a, b) => Number(a && b),
  "==": (a, b) => Number(a == b),
  "!=": (a, b) => Number(a != b),
  "<": (a, b) => Number(a < b),
  "<=": (a, b) => Number(a <= b),
  ">": (a, b) => Number(a > b),
  ">=": (a, b) => Number(a >= b),
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
  "^": (a, b) => a ** b,
};

/** One part of a compiled condition: its value in `scope` (a session's values, or the import's variables). */
type Read<T> = (scope: T) => unknown;

/** `text` compiled with `name` turning each name into its reader; null when filtrex cannot read it. */
export function compileCondition<T>(
  text: string,
  name: (n: string) => Read<T>,
): ((scope: T) => boolean) | null {
  const tokens: Array<[kind: "num" | "name" | "str" | "op", text: string]> = [];
  for (let i = 0; i < text.length; i = TOKEN.lastIndex) {
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(text);
    if (m === null) return null;
    tokens.push(
      m[1] ? ["num", m[1]] : m[2] ? ["name", m[2]] : m[3] !== undefined ? ["str", m[3]] : ["op", m[4]],
    );
  }
  let at = 0;
  const take = (ops: string[]) => {
    const t = tokens[at];
    return t && t[0] !== "str" && ops.includes(t[1]) ? tokens[at++][1] : undefined;
  };
  const level = (k: number): Read<T> => {
    let left = k === LEVELS.length ? unary() : level(k + 1);
    for (let op = take(LEVELS[k] ?? []); op !== undefined; op = take(LEVELS[k])) {
      const [l, r, f] = [left, level(k + 1), BINARY[op]];
      left = (s) => f(l(s), r(s));
    }
    return left;
  };
  const unary = (): Read<T> => {
    const op = take(["not", "-"]);
    if (op === undefined) return primary();
    const e = unary();
    return op === "-" ? (s) => -(e(s) as number) : (s) => Number(!e(s));
  };
  const primary = (): Read<T> => {
    const [kind, t] = tokens[at++] ?? [];
    if (kind === "num" || kind === "str") {
      const value = kind === "num" ? Number(t) : t;
      return () => value;
    }
    // A call (`abs(x)`) is not read here: the request is then always sent.
    if (kind === "name" && !WORDS.has(t) && tokens[at]?.[1] !== "(") return name(t);
    const inner = t === "(" && kind === "op" ? level(0) : undefined;
    if (inner && take([")"])) return inner;
    throw new SyntaxError(text);
  };
  try {
    const e = level(0);
    return at === tokens.length ? (s) => Boolean(e(s)) : null;
  } catch {
    return null;
  }
}

const decoder = new TextDecoder();

/** A session's value as filtrex reads it: unset is undefined, a number's text the number. */
export function sessionValue(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined) return undefined;
  const text = decoder.decode(bytes);
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}
