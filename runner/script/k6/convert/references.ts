/**
 * @module
 * How a k6 script reaches an async k6 API other than by calling it directly (an alias, a destructured name,
 * a computed member, `.default`): the converter awaits only calls it can see, so each is refused with why.
 */
import { asyncCallsOf, type Binding, type Node } from "./async.ts";

/** Why `node` reaches an async k6 API other than by a direct call (`const get = http.get`), or null. */
export function apiReferenceProblem(node: Node, parent: Node, bindings: Map<string, Binding>): string | null {
  if (node.type === "MemberExpression" && node.object.type === "Identifier") {
    return memberReferenceProblem(node, parent, bindings);
  }
  if (node.type !== "Identifier") return null;
  const b = bindings.get(node.name);
  if (b === undefined || b.name.startsWith("new ")) return null;
  const whole = b.name === "default" || b.name === "*";
  if (whole ? asyncCallsOf(b) === undefined : !asyncCallsOf(b)?.has(b.name)) return null;
  switch (parent?.type) {
    case "ImportSpecifier":
    case "ImportDefaultSpecifier":
    case "ImportNamespaceSpecifier":
      return null;
    case "CallExpression":
      if (!whole && parent.callee === node) return null;
      break;
    case "MemberExpression":
      if (whole && parent.object === node) return null;
      if (parent.property === node && !parent.computed) return null;
      break;
    case "Property":
      if (parent.key === node && !parent.shorthand) return null;
  }
  return `${node.name} (${b.module}) is used as a value here: loadlab awaits only its direct calls, e.g. ` +
    (whole ? `${node.name}.get(url)` : `${node.name}(...)`);
}

/** Why member `node` of a whole k6 module (`http[m]`, `ns.default`) is not a direct call, or null. */
function memberReferenceProblem(node: Node, parent: Node, bindings: Map<string, Binding>): string | null {
  const b = bindings.get(node.object.name);
  const calls = b && (b.name === "default" || b.name === "*") ? asyncCallsOf(b) : undefined;
  if (calls === undefined) return null;
  const name = node.object.name, key = memberKey(node);
  // A name computed as the script runs (`http[method](u)`) may be any of the module's calls.
  if (key === null) {
    return `${name}[...] picks a member of ${b!.module} by a name computed as it runs: loadlab awaits only ` +
      `calls written as ${name}.${[...calls][0]}(...)`;
  }
  // `ns.default` of `import * as ns` is the whole module again: its calls would go unawaited.
  if (b!.name === "*" && key === "default") {
    return `${name}.default is ${b!.module} itself, whose calls loadlab awaits only when ` +
      `written as ${name}.${[...calls][0]}(...): drop the .default`;
  }
  if (!calls.has(key)) return null;
  if (!node.computed && parent?.type === "CallExpression" && parent.callee === node) return null;
  return `${name}.${key} is reached here other than by a direct call: loadlab awaits only calls ` +
    `written as ${name}.${key}(...)`;
}

function memberKey(node: Node): string | null {
  const p = node.property;
  if (!node.computed) return p.name;
  if (p.type === "Literal") return String(p.value);
  return p.type === "TemplateLiteral" && p.expressions.length === 0 ? p.quasis[0].value.cooked : null;
}
