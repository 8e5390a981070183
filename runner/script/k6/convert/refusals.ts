/**
 * @module
 * What a k6 script may hold that parses but cannot run converted, found before any load; whether it is k6.
 */
import * as acorn from "acorn";
import { apiOf, asyncCallsOf, type Binding, isFunction, type Node, type Problem } from "./async.ts";

/** Deepest syntax tree a script may have: Deno's parser overflowed from about 1,200 (nested arrows). */
export const MAX_NESTING = 400;

export function refusedConstructs(ast: Node, bindings: Map<string, Binding>): Problem[] {
  const problems: Problem[] = [];
  const declared = declaredNames(ast);
  everyNode(ast, (node, above) => {
    const why = nodeProblem(node, above, bindings, declared);
    if (why !== null) problems.push({ pos: node.start, why });
  });
  return problems;
}

function nodeProblem(
  node: Node,
  above: Node[],
  bindings: Map<string, Binding>,
  declared: Set<string>,
): string | null {
  const reference = apiReferenceProblem(node, above[0], bindings);
  if (reference !== null) return reference;
  // k6's engine (sobek) parses neither: k6 refuses the script before its init code runs (107).
  const forAwait = node.type === "ForOfStatement" && node.await;
  if (forAwait || (isFunction(node) && node.async && node.generator)) {
    return `k6's JavaScript parses no ${forAwait ? "`for await`" : "async generator"}, so k6 refuses ` +
      "the script at its start: await each promise in a plain for...of loop";
  }
  if (node.type === "ImportExpression") {
    const named = specifierOf(node.source);
    const example = typeof named === "string" && isK6Module(named) ? named : "k6/http";
    return `a dynamic import() is not converted: use a static import at the top of the script ` +
      `(import http from "${example}")`;
  }
  if (node.type !== "CallExpression" && node.type !== "NewExpression") return null;
  const callee = node.callee;
  const name = callee.type === "Identifier" && !declared.has(callee.name) ? callee.name : null;
  // Function()'s code sees the global scope only: in a module holding no k6 API it cannot reach one.
  if (name === "eval" || (name === "Function" && bindings.size > 0)) {
    return `${name}() makes code from text at run time, which is not converted: write that code in the script`;
  }
  // One in a function (a UMD module's Node branch) throws only if called, as k6's (init_files.ts).
  if (name === "require" && node.type === "CallExpression" && !above.some(isFunction)) {
    return 'a require() other than `const x = require("m")` on a line of its own at the top level is not ' +
      'converted: import the module (import http from "k6/http")';
  }
  if (node.type === "CallExpression" && apiOf(node.callee, bindings) !== null && !above.some(isFunction)) {
    return "a k6 call that sends or waits at the script's top level (k6's init context, which refuses it " +
      "too): move it into setup() or the default function";
  }
  return null;
}

/** What a declared name may sit in: `const { a, b: [c] } = x`, `({ d = 1 }) => d`. */
const PATTERNS = new Set(["ObjectPattern", "ArrayPattern", "AssignmentPattern", "RestElement", "Property"]);

/** Names the script declares itself, in any scope (an `eval` it declares shadows the global). */
export function declaredNames(ast: Node): Set<string> {
  const names = new Set<string>();
  everyNode(ast, (node, above) => {
    if (node.type !== "Identifier") return;
    let bound = node, k = 0;
    while (PATTERNS.has(above[k]?.type) && above[k].right !== bound) bound = above[k++];
    const parent = above[k];
    if (
      (parent?.type === "VariableDeclarator" && parent.id === bound) || parent?.type === "CatchClause" ||
      ((isFunction(parent) || /^Class/.test(parent?.type)) &&
        (parent.id === bound || parent.params?.includes(bound))) ||
      /^Import\w*Specifier$/.test(parent?.type)
    ) names.add(node.name);
  });
  return names;
}

/** Calls `fn` on `node` and every node under it (nearest ancestor first); not into functions unless asked. */
export function everyNode(
  node: Node,
  fn: (node: Node, above: Node[]) => void,
  intoFunctions = true,
  above: Node[] = [],
): void {
  fn(node, above);
  const inner = [node, ...above];
  for (const child of childrenOf(node)) {
    if (intoFunctions || !isFunction(child)) everyNode(child, fn, intoFunctions, inner);
  }
}

export function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  for (const key of Object.keys(node)) {
    if (key === "loc") continue;
    const v = node[key];
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x.type === "string") out.push(x);
    } else if (v && typeof v === "object" && typeof v.type === "string") out.push(v);
  }
  return out;
}

/** Whether the script imports a module whose specifier `test` accepts. */
export const importsFrom = (ast: Node, test: (from: string) => boolean): boolean =>
  ast.body.some((s: Node) => s.type === "ImportDeclaration" && test(String(s.source.value)));

/** `source` parsed as a module, or null when it does not parse (its conversion names the error). */
export function parseOrNull(source: string): Node | null {
  try {
    return acorn.parse(source, { ecmaVersion: "latest", sourceType: "module" });
  } catch {
    return null;
  }
}

const TOO_DEEP = `: loadlab converts scripts nested at most ${MAX_NESTING} levels (deeper ones overflow a ` +
  "parser's stack); flatten it into functions or data";

/** The first node deeper than MAX_NESTING, as a problem, else null; walked without recursion. */
export function nestingProblem(ast: Node): Problem | null {
  const stack: Array<[Node, number]> = [[ast, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_NESTING) {
      return { pos: node.start, why: `nested more than ${MAX_NESTING} levels deep here${TOO_DEEP}` };
    }
    for (const child of childrenOf(node)) stack.push([child, depth + 1]);
  }
  return null;
}

export function parseProblem(err: unknown): { line: number; why: string } {
  const e = err as { loc?: { line: number }; message: string };
  if (err instanceof RangeError || /stack space/i.test(e.message)) {
    return { line: e.loc?.line ?? 1, why: `nested too deep to parse${TOO_DEEP}` };
  }
  return { line: e.loc?.line ?? 1, why: `syntax error: ${e.message.replace(/ \(\d+:\d+\)$/, "")}` };
}

const isK6Module = (name: unknown): boolean => name === "k6" || String(name).startsWith("k6/");

function specifierOf(node: Node | undefined): unknown {
  if (node?.type === "Literal") return node.value;
  if (node?.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

/** Only k6's: a parameterless default function, or options (`export { options }` too) that load or judge. */
export function exportsK6Options(s: Node, _: number, body: Node[]): boolean {
  const local = s.specifiers?.find((e: Node) => (e.exported?.name ?? e.exported?.value) === "options")?.local;
  const declared = s.declaration?.declarations ??
    (local ? body.flatMap((v: Node) => v.declarations ?? []) : []);
  return (s.type === "ExportDefaultDeclaration" && /Function/.test(s.declaration.type) &&
    s.declaration.params.length === 0) ||
    declared.some((d: Node) =>
      d.id.name === (local?.name ?? "options") && d.init?.type === "ObjectExpression" &&
      d.init.properties.some((p: Node) =>
        ["vus", "iterations", "duration", "stages", "scenarios"].includes(p.key?.name) ||
        (p.key?.name === "thresholds" && p.value.type === "ObjectExpression")
      )
    );
}

export function importsK6ByTokens(source: string): boolean {
  let previous = "";
  try {
    for (const token of acorn.tokenizer(source, { ecmaVersion: "latest", sourceType: "module" })) {
      const value: unknown = (token as { value?: unknown }).value;
      if (
        (token.type === acorn.tokTypes.string || token.type === acorn.tokTypes.template) &&
        ["import", "from", "import(", "require("].includes(previous) &&
        isK6Module(value)
      ) return true;
      // A template's backquote stands between `require(` and its text.
      previous = token.type === acorn.tokTypes.backQuote
        ? previous
        : token.type === acorn.tokTypes._import
        ? "import"
        : token.type === acorn.tokTypes.parenL && (previous === "import" || previous === "require")
        ? `${previous}(`
        : token.type.label === "name"
        ? String(value)
        : "";
    }
  } catch {
    // the parse already found the error: what came before it was read
  }
  return false;
}

/** Each `__VU` the init code reads (not a name the script declares): k6 runs init code once per VU. */
export function initVuReads(ast: Node): Node[] {
  const reads: Node[] = [], declared = declaredNames(ast);
  everyNode(ast, (n, above) => {
    if (n.type === "Identifier" && n.name === "__VU" && !declared.has("__VU") && readsInInit(n, above)) {
      reads.push(n);
    }
  });
  return reads;
}

/** Methods that change an array, a Map or a Set in place. */
const MUTATORS = /^(push|pop|shift|unshift|splice|sort|reverse|fill|add|set|delete|clear)$/;

/** Whether a function assigns a top-level `let`/`var` or mutates a `const` collection (each VU's own). */
export function keepsVuState(ast: Node): boolean {
  const vars = new Set<string>(), values = new Set<string>();
  for (const s of ast.body.map((s: Node) => s.declaration ?? s)) {
    for (const { id, init } of s.type === "VariableDeclaration" ? s.declarations : []) {
      const made = /^(Array|Object)Expression$/.test(init?.type) || /^(Map|Set)$/.test(init?.callee?.name);
      if (s.kind !== "const") vars.add(id.name);
      else if (made && init.type !== "CallExpression") values.add(id.name);
    }
  }
  let changed = false;
  everyNode(ast, (n, above) => {
    const set = n.type === "AssignmentExpression" ? n.left : n.type === "UpdateExpression" && n.argument;
    const call = n.type === "CallExpression" && n.callee.property?.name;
    const object = MUTATORS.test(call) ? n.callee.object : set?.object;
    changed ||= above.some(isFunction) && (vars.has(set?.name) || values.has(object?.name));
  });
  return changed;
}

/** Whether identifier `node` is a variable read in init code: under no function but a call's callbacks. */
function readsInInit(node: Node, above: Node[]): boolean {
  const parent = above[0];
  if (parent?.type === "MemberExpression" && parent.property === node && !parent.computed) return false;
  if (parent?.type === "Property" && parent.key === node && !parent.computed) return false;
  return above.every((f, k) =>
    !isFunction(f) || (["CallExpression", "NewExpression"].includes(above[k + 1]?.type) &&
      above[k + 1].arguments.includes(f))
  );
}

/** Why `node` reaches an async k6 API other than by a direct call (`const get = http.get`), or null. */
function apiReferenceProblem(node: Node, parent: Node, bindings: Map<string, Binding>): string | null {
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
    case "ExportSpecifier": // a scenario's exec: the runtime awaits its calls
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
  // The name it reads (`http.get`, `http["get"]`), else null (one computed as the script runs).
  const name = node.object.name, read = node.computed ? specifierOf(node.property) : node.property.name;
  const key = read === undefined ? null : String(read);
  // A name computed as the script runs (`http[method](u)`) may be any of the module's calls.
  if (key === null) {
    return `${name}[...] picks a member of ${b!.module} by a name computed as it runs: loadlab awaits only ` +
      `calls written as ${name}.${[...calls][0]}(...)`;
  }
  // `ns.default` of `import * as ns` of a k6 module is the whole module again: its calls would go unawaited.
  if (b!.name === "*" && key === "default" && b!.calls === undefined) {
    return `${name}.default is ${b!.module} itself, whose calls loadlab awaits only when ` +
      `written as ${name}.${[...calls][0]}(...): drop the .default`;
  }
  if (!calls.has(key)) return null;
  if (!node.computed && parent?.type === "CallExpression" && parent.callee === node) return null;
  return `${name}.${key} is reached here other than by a direct call: loadlab awaits only calls ` +
    `written as ${name}.${key}(...)`;
}
