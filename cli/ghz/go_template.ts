/**
 * @module
 * Go's text/template as ghz runs it over its call data: a parser giving Go's parse errors in Go's words that
 * compiles each action to a closure, Go's built-in functions, fmt's verbs and ghz's own (`newUUID`,
 * `randomString`, `randomInt`). Run before the load, a call's values at a time: never on the hot path.
 */

/** A value a template computes: Go's string, int, bool, nil (undefined) or the call data. */
type GoValue = string | number | boolean | undefined | Record<string, unknown>;
type Scope = { vars: Array<[string, GoValue]>; out: string };
type Run = (dot: GoValue, s: Scope, piped: GoValue[]) => GoValue;
type Exec = (dot: GoValue, s: Scope) => void;
/** A template's top-level piece: its text, or an action's (a block's first) words and what it reads. */
export interface GoPart {
  text?: string;
  words?: string[];
  /** An action of its own (not a block: `if`, `with`, `range`, `template`), as ghz looks for one. */
  action: boolean;
  /** The call data's fields and the functions it reads, at any depth. */
  uses: Set<string>;
  exec: Exec;
}

/** Go's parse error, in Go's words with the line it is on. */
export class GoParseError extends Error {}
/** Go's execution failed (ghz then sends the text as written). */
export const GO_EXEC_FAILED = new Error("Go's template execution failed");

const TOKEN = new RegExp(
  String.raw`\s+(?!-\}\})|\(|\)|\||,|:=|=|"(?:[^"\\\n]|\\.)*"|` + "`[^`]*`" +
    String.raw`|'(?:[^'\\]|\\.)+'|[-+]?(?:0[xX][\da-fA-F_]+|\d[\d_]*\.?\d*(?:[eE][-+]?\d+)?|\.\d+)|` +
    String.raw`\$\w*(?:\.\w+)*|(?:\.\w+)+|\.|\w+|.`,
  "y",
);
const fail = (_flow?: unknown): never => {
  throw GO_EXEC_FAILED;
};

/** Go's parse of `text`, a top `{{template "t" .}}` spliced in: its top pieces; throws `GoParseError`. */
export function parseGo(text: string): GoPart[] {
  const vars = ["$"], defs = new Map<string, GoPart[]>();
  let at = 0, depth = 0, top = 0, uses = new Set<string>();
  const error = (why: string): never => {
    throw new GoParseError(`template: call_template_data:${text.slice(0, at).split("\n").length}: ${why}`);
  };
  /** The next action's words, or a text, or undefined at the end; trim markers and comments applied. */
  const next = (): string[] | string | undefined => {
    if (at >= text.length) return undefined;
    const open = text.indexOf("{{", at), end = open < 0 ? text.length : open;
    if (open !== at) {
      const piece = text.slice(at, end);
      at = end;
      return /^\{\{-\s/.test(text.slice(end, end + 4)) ? piece.trimEnd() : piece;
    }
    at += /^\{\{-\s/.test(text.slice(at, at + 4)) ? 3 : 2;
    const words: string[] = [];
    while (at < text.length) {
      const close = /^(\s-)?\}\}/.exec(text.slice(at, at + 4))?.[0];
      if (close) {
        at += close.length;
        if (close.length > 2) at = text.length - text.slice(at).trimStart().length;
        return words[0]?.startsWith("/*") ? next() ?? "" : words;
      }
      const comment = text.startsWith("/*", at) && text.indexOf("*/", at);
      if (comment === -1) error("unclosed comment");
      TOKEN.lastIndex = at;
      const word = comment ? text.slice(at, comment + 2) : TOKEN.exec(text)![0];
      if (word === "\\") error(`unexpected "\\\\" in command`);
      // A field right after `)` is the parenthesized value's: `).Name`, one word.
      if (word[0] === "." && text[at - 1] === ")") words.push(words.pop() + word);
      else if (!/^\s/.test(word)) words.push(word);
      at += word.length;
    }
    return error("unclosed action");
  };
  /** A pipeline's run; a range's declared names are its own to set. */
  const pipe = (words: string[], of = "command"): [Run, string[]] => {
    const m = /^(\$\w*)( , (\$\w*))? (:=|=) /.exec(words.join(" "));
    const decl = m ? m[3] ? [m[1], m[3]] : [m[1]] : [], assign = m?.[4] === "=";
    if (decl.length > 1 && of !== "range") error("too many declarations in command");
    if (assign && !vars.includes(decl[0])) error(`undefined variable "${decl[0]}"`);
    let k = decl.length * 2;
    const operand = (): [Run, string?] => {
      const w = words[k++];
      const chain = (base: Run, fields: string[]): Run => {
        fields.forEach((f) => uses.add(f));
        return (d, s) =>
          fields.reduce((v, f) => typeof v === "object" && f in v ? method(v[f]) : fail(), base(d, s, []));
      };
      if (w === "(") {
        let open = 1, end = k;
        for (; end < words.length && open > 0; end++) {
          open += words[end] === "(" ? 1 : words[end][0] === ")" ? -1 : 0;
        }
        if (open > 0) error("unclosed left paren");
        const [inner] = pipe(words.slice(k, end - 1));
        k = end;
        return [chain(inner, words[end - 1].slice(2).split(".").filter((f) => f !== ""))];
      }
      const [name, ...fields] = w.split(".");
      if (w[0] === "$" && !vars.includes(name)) error(`undefined variable "${name}"`);
      if (w[0] === "$") return [chain((_, s) => s.vars.findLast(([n]) => n === name)![1], fields)];
      if (w[0] === ".") return [chain((d) => d, w === "." ? [] : fields)];
      const literal = /^["`']/.test(w) ? goString(w) : /^[-+.\d]/.test(w) ? Number(w.replaceAll("_", "")) : w;
      if (typeof literal === "number" && isNaN(literal)) error(`bad syntax: ${w}`);
      if (literal !== w) return [() => literal];
      if (w === "nil") return [() => fail()];
      if (w === "true" || w === "false") return [() => w === "true"];
      if (!/^\w+$/.test(w)) error(`unexpected "${w}" in command`);
      if (!(w in BUILTINS)) error(`function "${w}" not defined`);
      uses.add(w);
      return [() => call(w, []), w];
    };
    const cmds: Run[] = [];
    while (k <= words.length) {
      const ops: Array<[Run, string?]> = [];
      while (k < words.length && words[k] !== "|") ops.push(operand());
      if (ops.length === 0 && k === words.length && cmds.length > 0) break; // Go's trailing `|`
      if (ops.length === 0) error(`missing value for ${k < words.length ? "command" : of}`);
      const [[head, fn], ...rest] = ops;
      k++;
      cmds.push(
        fn === undefined
          ? (d, s, piped) => rest.length > 0 || piped.length > 0 ? fail() : head(d, s, [])
          : (d, s, piped) =>
            call(fn, [...rest.map(([r]) => () => r(d, s, [])), ...piped.map((v) => () => v)]),
      );
    }
    if (!assign) vars.push(...decl);
    const run: Run = (d, s) => {
      let v: GoValue;
      cmds.forEach((cmd, i) => v = cmd(d, s, i === 0 ? [] : [v]));
      if (assign) s.vars.findLast(([n]) => n === decl[0])![1] = v;
      else if (decl.length === 1 && of !== "range") s.vars.push([decl[0], v]);
      return v;
    };
    return [run, decl];
  };
  /** Parts up to an `end` or `else` (returned as its words), or to the text's end. */
  const list = (inRange: boolean): [GoPart[], string[] | undefined] => {
    const parts: GoPart[] = [];
    for (let item = next(); item !== undefined; item = next()) {
      if (depth === top) uses = new Set();
      const part = { words: typeof item === "string" ? undefined : item, action: false, uses };
      if (typeof item === "string") {
        parts.push({ ...part, text: item, exec: (_, s) => void (s.out += item) });
        continue;
      }
      const [head, ...rest] = item;
      if ((head === "end" || head === "else") && depth === 0) error(`unexpected {{${head}}}`);
      if (head === "end" || head === "else") return [parts, item];
      if ((head === "break" || head === "continue") && !inRange) error(`{{${head}}} outside {{range}}`);
      if (head === "define" && depth > 0) error("unexpected <define> in command");
      if (head === "define" || head === "template" || head === "block") {
        const name = String(/^["`]/.test(rest[0] ?? "") ? goString(rest[0]) : NaN), clause = `${head} clause`;
        const bad = name === "NaN" ? rest[0] ?? "}}" : head === "define" || rest[1] === "|" ? rest[1] : "";
        if (bad) error(`unexpected ${KEYWORD.test(bad) ? `<${bad}>` : JSON.stringify(bad)} in ${clause}`);
        if (head === "block" && rest.length < 2) error("missing value for block clause");
        const [run] = rest.length > 1 ? pipe(rest.slice(1), clause) : [() => undefined];
        if (head !== "template") define(name);
        if (head === "define") continue;
        part.uses.add(NAMED);
        parts.push({ ...part, exec: (d, s) => named(defs.get(name), run(d, s, []), s) });
      } else if (head === "if" || head === "with" || head === "range") {
        parts.push({ ...part, exec: block(head, rest, inRange) });
      } else if (head === "break" || head === "continue") {
        parts.push({ ...part, exec: () => fail(FLOW.thrown = head) });
      } else {
        const [run, decl] = pipe(item);
        const exec: Exec = (d, s) => {
          const v = run(d, s, []);
          if (decl.length === 0) s.out += typeof v === "object" ? fail() : v === undefined ? "<no value>" : v;
        };
        parts.push({ ...part, action: true, exec });
      }
    }
    if (depth > 0) error("unexpected EOF");
    return [parts, undefined];
  };
  /** A named template's body (its own variables): one of a name, an empty one giving way. */
  const define = (name: string) => {
    const [outer, scope, held] = [vars.splice(1), top, uses];
    top = ++depth;
    const [body, stop] = list(false);
    if (stop![0] !== "end") error("unexpected {{else}} in define clause");
    [top, depth, uses, vars.length] = [scope, depth - 1, held, 1];
    vars.push(...outer);
    const [old, empty] = [defs.get(name), (ps = body) => ps.every((p) => p.text?.trim() === "")];
    if (old && !empty(old) && !empty()) error(`template: multiple definition of template "${name}"`);
    if (!old || empty(old)) defs.set(name, body);
  };
  const block = (kind: string, words: string[], inRange: boolean): Exec => {
    const scope = vars.length;
    depth++;
    const [run, decl] = pipe(words, kind);
    const [body, stop] = list(inRange || kind === "range");
    let orElse: Exec = () => {};
    if (stop![0] === "else" && stop!.length > 1) {
      // `else if ...` (`else with`): a block of its own, ending at this one's end.
      depth--;
      orElse = block(stop![1], stop!.slice(2), inRange);
      depth++;
    } else if (stop![0] === "else") {
      const [tail, end] = list(inRange);
      if (end![0] !== "end") error("expected end; found {{else}}");
      orElse = all(tail);
    }
    depth--;
    vars.length = scope;
    const then = all(body);
    return (d, s) => {
      const scope = s.vars.length, v = run(d, s, []);
      if (kind !== "range") (truth(v) ? then : orElse)(kind === "with" && truth(v) ? v : d, s);
      else if (typeof v !== "number" || !Number.isInteger(v) || decl.length > 1) fail();
      else {
        for (let i = 0; i < v; i++) {
          s.vars.length = scope;
          if (decl.length > 0) s.vars.push([decl[0], i]);
          try {
            then(i, s);
          } catch (err) {
            const flow = FLOW.thrown;
            if (err !== GO_EXEC_FAILED || flow === "") throw err;
            FLOW.thrown = "";
            if (flow === "break") break;
          }
        }
        if (v <= 0) orElse(d, s);
      }
      s.vars.length = scope;
    };
  };
  const parts = list(false)[0];
  const used = [...defs.values()].flat().flatMap((p) => [...p.uses]);
  [...parts, ...defs.values()].flat().forEach((p) => p.uses.has(NAMED) && used.forEach((n) => p.uses.add(n)));
  // A template or block called with the dot at a top (the text's, a named one's): its pieces in its place.
  const spliced = (parts: GoPart[], depth: number): GoPart[] =>
    parts.flatMap((p): GoPart[] => {
      const [h, n, d, more] = p.words ?? [];
      const body = /^(template|block)$/.test(h) && d === "." && !more && defs.get(String(goString(n)));
      return body && depth < 8 ? spliced(body, depth + 1).map((q) => ({ ...q, action: false })) : [p];
    });
  return spliced(parts, 0);
}

/** Go's words it names as `<word>` in a parse error. */
const KEYWORD = /^(\.|nil|end|else|if|with|range|define|block|template)$/;
/** A call of a named template: its body run over `dot`, `$` its dot; a name not defined fails. */
const NAMED = "{{template}}";
function named(body: GoPart[] | undefined, dot: GoValue, s: Scope) {
  // A failure ends the whole execution (runGo starts the next afresh): nothing to restore then.
  const [vars, depth] = [s.vars, FLOW.depth++];
  if (body === undefined || depth > 1000) fail();
  s.vars = [["$", dot]];
  body!.forEach((p) => p.exec(dot, s));
  [s.vars, FLOW.depth] = [vars, depth];
}

/** A `break` or `continue` under way: thrown as a failure, caught by its range. */
const FLOW = { thrown: "", depth: 0 };
const all = (parts: GoPart[]): Exec => (d, s) => parts.forEach((p) => p.exec(d, s));

/** Each part's text, run in turn over `dot` (the call data); throws `GO_EXEC_FAILED` where Go fails. */
export function runGo(parts: GoPart[], dot: Record<string, unknown>): string[] {
  const s: Scope = { vars: [["$", dot]], out: "" };
  [FLOW.thrown, FLOW.depth] = ["", 0];
  return parts.map((p) => (s.out = "", p.exec(dot, s), s.out));
}

/** A Go string's (or rune's) value; NaN where it is not one. */
function goString(w: string): string | number {
  if (w[0] === "`") return w.slice(1, -1);
  const body = w.slice(1, -1).replace(/\\x([\da-f]{2})/gi, "\\u00$1").replace(/\\'/g, "'");
  try {
    const value = JSON.parse(`"${body === '"' ? '\\"' : body}"`);
    return w[0] === "'" ? value.codePointAt(0) : value;
  } catch {
    return NaN;
  }
}

/** A field's value, its method's where it is one (Go calls a method with no arguments). */
const method = (v: unknown) => (typeof v === "function" ? v() : v) as GoValue;
/** Go's truth: false, 0, "" and nil are empty. */
const truth = (v: GoValue) => v !== undefined && v !== false && v !== 0 && v !== "";
const encoder = new TextEncoder();
const int = (v: GoValue) => typeof v === "number" && Number.isInteger(v) ? v : fail();
const bytesOf = (v: GoValue) => typeof v === "string" ? encoder.encode(v) : fail();
const cmp = (x: GoValue, y: GoValue) =>
  typeof x === typeof y && typeof x !== "object" ? x! < y! ? -1 : x === y ? 0 : 1 : fail();
const ordered = ([x, y]: GoValue[]) => typeof x === "boolean" ? fail() : cmp(x, y);
const text = (a: GoValue[]) => a.length === 1 && typeof a[0] === "string" ? a[0] : sprint(a);
const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).toUpperCase().padStart(width, "0");
const draw = (n: number) => Math.floor(Math.random() * n);
/** ghz's randomString's characters. */
const GO_CHARSET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Arguments Go's built-in functions (and ghz's) take where it is a count; the others take any. */
const ARITY: Record<string, number> = { not: 1, len: 1, ne: 2, lt: 2, le: 2, gt: 2, ge: 2, newUUID: 0 };
// deno-lint-ignore no-control-regex
const JS_UNSAFE = /[\\'"<>&=\0-\x1f]/g;
/** Go's built-in functions and ghz's (`and` and `or` run by `call`). */
const BUILTINS: Record<string, (a: GoValue[]) => GoValue> = {
  and: fail,
  or: fail,
  call: fail,
  not: ([v]) => !truth(v),
  len: ([v]) => bytesOf(v).length,
  index: ([v, ...at]) => at.length === 0 ? v : at.length > 1 ? fail() : bytesOf(v)[int(at[0])] ?? fail(),
  slice: ([v, i = 0, j = bytesOf(v).length, ...more]) =>
    more.length > 0 || int(i) < 0 || i > j || int(j) > bytesOf(v).length
      ? fail()
      : new TextDecoder().decode(bytesOf(v).subarray(i as number, j as number)),
  eq: ([x, ...ys]) => ys.length > 0 ? ys.some((y) => cmp(x, y) === 0) : fail(),
  ne: ([x, y]) => cmp(x, y) !== 0,
  lt: (a) => ordered(a) < 0,
  le: (a) => ordered(a) <= 0,
  gt: (a) => ordered(a) > 0,
  ge: (a) => ordered(a) >= 0,
  print: (a) => sprint(a),
  println: (a) => a.map(show).join(" ") + "\n",
  printf: ([format, ...a]) => typeof format === "string" ? sprintf(format, a) : fail(),
  html: (a) =>
    text(a).replace(/[&'<>"\0]/g, (c) => c === "\0" ? "\uFFFD" : `&${HTML[c] ?? `#${c.charCodeAt(0)}`};`),
  js: (a) => text(a).replace(JS_UNSAFE, (c) => "\\'\"".includes(c) ? `\\${c}` : `\\u${hex(c, 4)}`),
  urlquery: (a) =>
    encodeURIComponent(text(a)).replace(/[!'()*]/g, (c) => `%${hex(c, 2)}`).replace(/%20/g, "+"),
  newUUID: () => crypto.randomUUID(),
  // ghz's randomString: 2 to 16 letters where the length is not above 0.
  randomString: ([n, ...more]) => {
    const length = more.length > 0 ? fail() : int(n) > 0 ? int(n) : 2 + draw(15);
    return Array.from({ length }, () => GO_CHARSET[draw(62)]).join("");
  },
  // ghz's randomInt: a negative min is 0, a max not above 0 is 1; an empty range panics in Go's Intn.
  randomInt: ([lo, hi, ...more]) => {
    const [min, max] = [Math.max(0, int(lo)), int(hi) <= 0 ? 1 : int(hi)];
    return max > min && more.length === 0 ? min + draw(max - min) : fail();
  },
};
const HTML: Record<string, string> = { "&": "amp", "<": "lt", ">": "gt" };

/** Go's built-in function `name` (or ghz's), its arguments not run yet: `and` and `or` stop early. */
function call(name: string, args: Array<() => GoValue>): GoValue {
  if (name === "and" || name === "or") {
    let v: GoValue = args.length > 0 ? undefined : fail();
    for (const arg of args) if (truth(v = arg()) === (name === "or")) return v;
    return v;
  }
  const count = ARITY[name] ?? args.length;
  return args.length !== count ? fail() : BUILTINS[name](args.map((arg) => arg()));
}

/** A value as Go's fmt prints it with %v. */
const show = (v: GoValue): string => typeof v === "object" ? fail() : v === undefined ? "<nil>" : String(v);
/** fmt.Sprint: a space between operands when neither is a string. */
const sprint = (a: GoValue[]) =>
  a.map((v, k) => (k && typeof v !== "string" && typeof a[k - 1] !== "string" ? " " : "") + show(v)).join("");
const GO_TYPES: Record<string, string> = { number: "float64", boolean: "bool" };
const typeOf = (v: GoValue) => Number.isInteger(v) ? "int" : GO_TYPES[typeof v] ?? "string";

/** One of fmt's verbs over a value, undefined where it takes not that value's type. */
function verbOf(verb: string, v: GoValue, p: number | undefined, plus: string): string | undefined {
  const type = typeof v === "object" ? fail() : typeOf(v), n = v as number;
  if (verb === "T") return type;
  if (verb === "v" || (verb === "t" && type === "bool")) return (type === "bool" ? "" : plus) + show(v);
  if (type === "string" && verb === "s") return (v as string).slice(0, p);
  if (type === "string" && verb === "q") return JSON.stringify(v);
  if (type === "string" && "xX".includes(verb)) {
    return [...bytesOf(v)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  const rune = () => String.fromCodePoint(n >= 0 && n <= 0x10ffff ? n : 0xfffd);
  if (type === "int" && verb === "q") return `'${rune()}'`;
  if (type === "int" && verb === "c") return rune();
  const radix = { d: 10, b: 2, o: 8, x: 16, X: 16 }[verb];
  if (type === "int" && radix) return plus + n.toString(radix);
  const f = verb.toLowerCase();
  if (type !== "float64" || !"efg".includes(f)) return undefined; // Go's %f takes no int
  const s = f === "f" ? n.toFixed(p ?? 6) : f === "e" ? n.toExponential(p ?? 6) : n.toPrecision(p);
  return plus + s.replace(/e([-+])(\d)$/, "e$10$2");
}

/** fmt.Sprintf's flags, width, precision and verbs over Go's strings, ints and bools. */
function sprintf(format: string, args: GoValue[]): string {
  let n = 0;
  const out = format.replace(/%([-+# 0]*)(\d*)(?:\.(\d*))?(.?)/gs, (_, flags, width, prec, verb) => {
    if (verb === "%" || verb === "") return verb === "%" ? "%" : "%!(NOVERB)";
    if (n >= args.length) return `%!${verb}(MISSING)`;
    const v = args[n++], plus = typeof v === "number" && v >= 0 && flags.includes("+") ? "+" : "";
    const good = verbOf(verb, v, prec === undefined ? undefined : Number(prec || 0), plus);
    const s = (/[XEG]/.test(verb) ? good?.toUpperCase() : good) ?? `%!${verb}(${typeOf(v)}=${show(v)})`;
    const pad = Number(width || 0) - s.length;
    if (pad <= 0) return s;
    if (flags.includes("-")) return s + " ".repeat(pad);
    if (flags.includes("0") && typeof v === "number") return s.replace(/^([-+]?)/, `$1${"0".repeat(pad)}`);
    return " ".repeat(pad) + s;
  });
  const extra = args.slice(n).map((v) => `${typeOf(v)}=${show(v)}`).join(", ");
  return n >= args.length ? out : `${out}%!(EXTRA ${extra})`;
}
