/**
 * @module
 * Artillery's `ifTrue` decided at import, as its filtrex 0.5 reads it: `and`, `or`, `not`, comparisons (`==`
 * loose), arithmetic, "double-quoted" strings and variable names. An expression filtrex cannot read (`&&`,
 * `'x'`, `$loopCount`) sends the request there, so it does here; a name filled per response is refused.
 */
import { type Collector, problem } from "./common.ts";
import type { FlowContext } from "./request.ts";

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)\b|([a-zA-Z][.a-zA-Z0-9_]*)|"([^"]*)"|(==|!=|>=|<=|[<>()+\-*/%^]))\s*/y;
const WORDS: Record<string, string> = { and: "&&", or: "||", not: "!" };

/** Whether the request guarded by `expression` is sent; undefined (and an issue) when not decidable here. */
export function ifTrueHolds(expression: unknown, path: string, ctx: FlowContext, out: Collector) {
  const text = String(expression);
  const names: string[] = [];
  let js = "";
  let at = 0;
  for (; at < text.length; at = TOKEN.lastIndex) {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (m === null && /^\s*[?:,~]/.test(text.slice(at))) names.push("in");
    if (m === null) break; // filtrex fails to read it: Artillery sends the request
    const [, number, name, string, op] = m;
    if (name !== undefined && !(name in WORDS)) names.push(name);
    js += number ?? (string !== undefined ? JSON.stringify(string) : undefined) ??
      (op === "^" ? "**" : op) ?? WORDS[name] ?? `v(${JSON.stringify(name)})`;
    js += " ";
  }
  if (at < text.length && !names.includes("in")) return true;
  const late = names.find((n) => ctx.runtimeNames.has(n) || "list" in (ctx.variables.get(n) ?? {}));
  if (late !== undefined || names.includes("in")) {
    const why = late === undefined
      ? "`in`, `~=` and `? :` are not decided here"
      : `reads ${late}, filled per virtual user or response`;
    return problem(out, path, `${why}; loadlab decides ifTrue before the load: drop it, or script it`);
  }
  // filtrex reads `a.b` as the variable named so, never a field of `a`.
  const value = (n: string) => {
    const v = n.includes(".") ? undefined : ctx.variables.get(n);
    return v && "value" in v ? v.value : undefined;
  };
  try {
    return Boolean(new Function("v", `return (${js});`)(value));
  } catch {
    return true; // a parse error there: the request is sent
  }
}
