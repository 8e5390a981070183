/**
 * @module
 * The origins a k6 script's URLs name, read from its text with its `__ENV`, and whether the text spells
 * each (which `--target` may send to the target) or the environment gives it.
 */
import type { Node } from "./async.ts";
import { childrenOf, everyNode, importsFrom } from "./refusals.ts";

/** An origin a script's URLs name, and whether its text spells it (else the environment gives it). */
type ScriptOrigin = { origin: string; literal: boolean };
/** A script's `__ENV`: the variables `-e` and the process give it. */
type Env = Readonly<Record<string, string>>;

/** The origins the script's syntax tree `ast` names (none when its text does not parse). */
export function scriptOrigins(ast: Node | null, env: Env): ScriptOrigin[] {
  if (ast === null) return [];
  const found = new Map<string, ScriptOrigin>();
  const grpc = grpcScheme(ast);
  const consts = constsOf(ast);
  const visit = (text: unknown, literal: boolean) => {
    const origin = originOf(text) ?? (grpc === null ? null : addressOrigin(text, grpc));
    if (origin !== null && !found.has(origin)) found.set(origin, { origin, literal });
  };
  const walkNode = (n: Node): void => {
    if (n === null || typeof n !== "object" || n.type === "ImportDeclaration") return;
    const read = envRead(n, env);
    if (read !== null) {
      if (read.value !== undefined) visit(read.value, false);
      return;
    }
    if (n.type === "Literal") visit(n.value, true);
    // `http://${HOST}:8080/${id}`: the URL's origin, when the parts before its path are known.
    const whole = n.type === "TemplateLiteral" ? textOf(n, env, consts) : undefined;
    if (whole !== undefined && originOf(whole) !== null) return visit(whole, n.expressions.length === 0);
    if (n.type === "TemplateElement") visit(n.value.cooked, true);
    // `a || b`, `a ?? b`: the fallback is named only when the variable before it is unset (or empty).
    if (n.type === "LogicalExpression" && n.operator !== "&&") {
      const left = envRead(n.left, env);
      if (left !== null && left.value !== undefined && (n.operator === "??" || left.value !== "")) {
        return walkNode(n.left);
      }
    }
    childrenOf(n).forEach(walkNode);
  };
  walkNode(ast);
  return [...found.values()];
}

/** The script's `const` declarations' values by name. */
function constsOf(ast: Node): Map<string, Node> {
  const consts = new Map<string, Node>();
  everyNode(ast, (n: Node, above: Node[]) => {
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && above[0]?.kind === "const") {
      consts.set(n.id.name, n.init);
    }
  });
  return consts;
}

/** The unset `__ENV` variables a URL starts with (`${__ENV.BASE}/login`, `BASE + "/login"`, BASE a const). */
export function unsetUrlVariables(ast: Node | null, env: Env): string[] {
  const names = new Set<string>();
  if (ast === null) return [];
  const consts = constsOf(ast);
  const unset = (n: Node, depth: number): string | undefined => {
    if (n === null || n === undefined || depth > 8 || textOf(n, env, consts) !== undefined) {
      return undefined;
    }
    const read = envRead(n, env);
    if (read !== null) return read.name;
    if (n.type === "Identifier") return unset(consts.get(n.name), depth + 1);
    if (n.type === "LogicalExpression") return unset(n.left, depth + 1) ?? unset(n.right, depth + 1);
  };
  const pathLike = (text: unknown) => typeof text === "string" && /^[/:?]/.test(text);
  everyNode(ast, (n: Node) => {
    const name = n.type === "TemplateLiteral" && n.quasis[0].value.cooked === "" &&
        pathLike(n.quasis[1]?.value.cooked)
      ? unset(n.expressions[0], 0)
      : n.type === "BinaryExpression" && n.operator === "+" && pathLike(n.right.value)
      ? unset(n.left, 0)
      : undefined;
    if (name !== undefined) names.add(name);
  });
  return [...names];
}

const SENDING = new Set(["k6/http", "k6/ws", "k6/net/grpc", "k6/websockets", "k6/experimental/websockets"]);

/** Whether the script imports a module that sends requests (k6's, or remote as httpx); unparsable: true. */
export function mayRequest(ast: Node | null): boolean {
  return ast === null || importsFrom(ast, (from) => SENDING.has(from) || /^https?:\/\//.test(from));
}

/** Whether every request names no server: k6/http URLs only text with no http scheme, which k6 fails. */
export function namesNoServer(ast: Node | null, env: Env): boolean {
  const sending = ast?.body.filter((s: Node) =>
    s.type === "ImportDeclaration" && SENDING.has(s.source.value)
  );
  if (sending?.length !== 1 || sending[0].source.value !== "k6/http" || sending[0].specifiers.length !== 1) {
    return false;
  }
  const name = sending[0].specifiers[0].local.name, consts = constsOf(ast);
  let uses = -1, unsent = 0;
  everyNode(ast, (n: Node) => {
    if (n.type === "Identifier" && n.name === name) uses++;
    if (n.type !== "CallExpression" || n.callee.object?.name !== name) return;
    const text = textOf(n.arguments[n.callee.property.name === "request" ? 1 : 0], env, consts);
    if (text !== undefined && !text.startsWith("/") && !/^https?:/i.test(text)) unsent++;
  });
  return uses === unsent;
}

/** A k6/net/grpc script's scheme: `http` if `plaintext: true` is written, else `https`; else null. */
function grpcScheme(ast: Node): "http" | "https" | null {
  if (!importsFrom(ast, (from) => from === "k6/net/grpc")) return null;
  let plaintext = false;
  everyNode(ast, (n: Node) => {
    if (n.type === "Property" && !n.computed && (n.key.name ?? n.key.value) === "plaintext") {
      plaintext ||= n.value.type === "Literal" && n.value.value === true;
    }
  });
  return plaintext ? "http" : "https";
}

/** The origin of a gRPC server address (`host:port`, the host a name or an IP), else null. */
function addressOrigin(text: unknown, scheme: "http" | "https"): string | null {
  const address = typeof text === "string" &&
    /^(\[[0-9a-f:.]+\]|[a-z0-9-]*[a-z.][a-z0-9.-]*):\d{1,5}$/i.test(text);
  return address ? URL.parse(`${scheme}://${text}`)?.origin ?? null : null;
}

/** `__ENV.NAME` or `__ENV["NAME"]`: the variable's value (undefined when unset); null for another node. */
function envRead(n: Node, env: Env): { name: string; value: string | undefined } | null {
  if (n.type !== "MemberExpression" || n.object.type !== "Identifier" || n.object.name !== "__ENV") {
    return null;
  }
  const name = n.computed ? (n.property.type === "Literal" ? n.property.value : undefined) : n.property.name;
  if (typeof name !== "string") return null;
  return { name, value: Object.hasOwn(env, name) ? env[name] : undefined };
}

/** The text `n` has before the run (a literal, set `__ENV`, `const`, fallback, template), else undefined. */
function textOf(n: Node, env: Env, consts: Map<string, Node>, depth = 0): string | undefined {
  if (n === null || n === undefined || depth > 8) return undefined;
  if (n.type === "Literal") return typeof n.value === "string" ? n.value : undefined;
  const read = envRead(n, env);
  if (read !== null) return read.value;
  if (n.type === "Identifier") return textOf(consts.get(n.name), env, consts, depth + 1);
  if (n.type === "LogicalExpression" && n.operator !== "&&") {
    const left = textOf(n.left, env, consts, depth + 1);
    return left === undefined || (left === "" && n.operator === "||")
      ? textOf(n.right, env, consts, depth + 1)
      : left;
  }
  if (n.type !== "TemplateLiteral") return undefined;
  let text: string = n.quasis[0].value.cooked ?? "";
  for (let k = 0; k < n.expressions.length; k++) {
    const value = textOf(n.expressions[k], env, consts, depth + 1);
    if (value === undefined) return /^[a-z]+:\/\/[^/?#]+[/?#]/i.test(text) ? text : undefined;
    text += value + (n.quasis[k + 1].value.cooked ?? "");
  }
  return text;
}

function originOf(text: unknown): string | null {
  if (typeof text !== "string") return null;
  const m = /^(https?|wss?)(:\/\/[^/?#\s`'"$]+)/.exec(text);
  return m === null ? null : URL.parse(`${m[1].replace(/^ws/, "http")}${m[2]}`)?.origin ?? null;
}
