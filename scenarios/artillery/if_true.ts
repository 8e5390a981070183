/**
 * @module
 * Artillery's `ifTrue` as its filtrex 0.5 reads it (runner/step_condition.ts): decided at import from
 * config.variables and loop values, or left on the step for each session to decide when it reads a payload
 * field or a capture. An expression filtrex cannot read (`&&`, `'x'`, `$loopCount`) sends the request.
 */
import { type Collector, problem } from "./common.ts";
import type { FlowContext } from "./request.ts";
import { compileCondition } from "../../runner/step_condition.ts";

/**
 * Whether the request guarded by `expression` is sent: decided here, or the condition each session decides
 * (config variables written in as values); undefined (and an issue) when neither.
 */
export function ifTrueHolds(expression: unknown, path: string, ctx: FlowContext, out: Collector) {
  const text = String(expression);
  const names: string[] = [];
  // filtrex reads `a.b` as the variable named so, never a field of `a`.
  const variable = (n: string) => {
    const v = n.includes(".") ? undefined : ctx.variables.get(n);
    return v && "value" in v ? v.value : undefined;
  };
  const decide = compileCondition(text, (n) => {
    names.push(n);
    const v = variable(n);
    return () => v;
  });
  const fix = "loadlab decides ifTrue before the load or per session: drop it, or script it";
  if (decide === null && /\bin\b|~=|\?/.test(text)) {
    return problem(out, path, `\`in\`, \`~=\` and \`? :\` are not decided here; ${fix}`);
  }
  if (decide === null) return true;
  // A list drawn per user, or with a processor a name no variable holds (a hook may set it): sessions decide.
  const drawn = (n: string) => "list" in (ctx.variables.get(n) ?? {});
  if (names.some(drawn)) ctx.scripted = true;
  const later = (n: string) =>
    drawn(n) || ctx.runtimeNames.has(n) || ctx.processor !== undefined && variable(n) === undefined;
  if (!names.some(later)) return decide(undefined);
  const literal = (v: string | number | boolean) =>
    typeof v === "boolean" ? Number(v) : typeof v === "number" ? `(${v})` : `"${v}"`;
  return text.replace(/"[^"]*"|[a-zA-Z][.a-zA-Z0-9_]*/g, (m) => {
    const v = m.startsWith('"') || ctx.runtimeNames.has(m) ? undefined : variable(m);
    return v === undefined ? m : String(literal(v));
  });
}
