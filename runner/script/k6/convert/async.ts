/**
 * @module
 * Which calls of a k6 script become awaited and which functions `async`; what cannot is refused at its line.
 */
import * as walk from "acorn-walk";
import { ARRAY_METHODS, ASYNC_CALLS, ASYNC_METHODS, PAGE_CALLS } from "./modules.ts";

export type Node = any;

/** A construct refused at its position in the script, and why. */
export type Problem = { pos: number; why: string };

/** A parameter of a function (by its name, or its node) that callers hand a function that sends requests. */
type HandedParam = { local?: string; node?: Node; index: number };

/** A name an import binds: `default`, `*` or the imported name; `calls`: a local module's async exports. */
export type Binding = { module: string; name: string; calls?: ReadonlySet<string> };

export function asyncCallsOf(b: Binding): ReadonlySet<string> | undefined {
  if (b.calls === undefined) return ASYNC_CALLS[b.module];
  return b.calls.size === 0 ? undefined : b.calls;
}

interface AsyncPlan {
  awaited: ReadonlySet<Node>;
  asyncNames: ReadonlySet<string>;
  /** Names of methods made async: every call `x.name(...)` is awaited (`.name` in a module's calls). */
  asyncMethods: ReadonlySet<string>;
  /** Where `async` goes before a method written `name() {}`: its name's start. */
  asyncAt: ReadonlyMap<Node, number>;
  arrayCalls: Set<Node>;
  asyncFunctions: Set<Node>;
  /** k6 calls the script chains `.then`, `.catch` or `.finally` on: promises it does not await. */
  chained: ReadonlySet<Node>;
  /** Awaited k6 calls that block the VU's loop as in k6 (not those whose callbacks run on it). */
  blocking: ReadonlySet<Node>;
  /** Whether an async function is handed to k6's event loop (its requests must hold the iteration). */
  handsOff: boolean;
  /** Local modules' exports handed such a function here, at an argument: their modules await its calls. */
  handed: Array<{ module: string; name: string; index: number }>;
  problems: Problem[];
}

export const isFunction = (n: Node) =>
  n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";

function collect(ast: Node): { calls: Node[][]; functions: Node[][]; identifiers: Node[][] } {
  const calls: Node[][] = [], functions: Node[][] = [], identifiers: Node[][] = [];
  walk.fullAncestor(ast, (node: Node, _state: unknown, ancestors: Node[]) => {
    if (node.type === "CallExpression") calls.push([...ancestors]);
    else if (isFunction(node)) functions.push([...ancestors]);
    else if (node.type === "Identifier") identifiers.push([...ancestors]);
  });
  return { calls, functions, identifiers };
}

function nameOf(path: Node[]): string | null {
  const fn = path[path.length - 1], parent = path[path.length - 2];
  if (fn.type === "FunctionDeclaration" && fn.id) return fn.id.name;
  if (parent?.type === "VariableDeclarator" && parent.init === fn && parent.id.type === "Identifier") {
    return parent.id.name;
  }
  return null;
}

function enclosing(path: Node[]): Node | null {
  for (let k = path.length - 2; k >= 0; k--) if (isFunction(path[k])) return path[k];
  return null;
}

export const PROMISE = new Set(["then", "catch", "finally"]);
const ASYNC_REQUEST = "k6/http.asyncRequest";
/** k6 calls whose callbacks run on the VU's loop while they are awaited: they do not block it. */
const LOOPING = new Set(["k6.group", "k6.check", "k6/ws.connect"]);
/** Calls whose callback k6's event loop runs later (`runsLater`). */
const HAND_OFFS = new Set([...PROMISE, "setTimeout", "setInterval"]);
/** What `placeProblem` says of a function handed to k6's event loop. */
const HANDED = "";

export function planAsync(ast: Node, imported: Map<string, Binding>, given: HandedParam[] = []): AsyncPlan {
  const bindings = withInstances(ast, imported);
  const { calls, functions, identifiers } = collect(ast);
  const names = new Map<Node, string | null>(functions.map((p) => [p[p.length - 1], nameOf(p)]));
  const methods = methodsOf(functions), asyncAt = new Map<Node, number>();
  const asyncMethods = new Set(
    [...imported.values()].flatMap((b) => [...b.calls ?? []]).filter((c) => c[0] === ".")
      .map((c) => c.slice(1)),
  );
  const asyncFunctions = new Set<Node>(), asyncNames = new Set<string>();
  const arrayCalls = new Set<Node>(), awaited = new Set<Node>(), chained = new Set<Node>();
  const blocking = new Set<Node>();
  const asyncCallback = (arg: Node) =>
    arg !== undefined && (asyncFunctions.has(arg) || (arg.type === "Identifier" && asyncNames.has(arg.name)));
  // Parameters called as functions that send requests: those of the script's own functions handed one,
  // and those the module's importers hand one (`given`).
  const byName = new Map([...names].filter(([, n]) => n !== null).map(([fn, n]) => [n!, fn]));
  const params = new Map<Node, Set<string>>();
  const handParam = (fn: Node | undefined, index: number) => {
    const p = fn?.params[index];
    if (p?.type !== "Identifier" || params.get(fn)?.has(p.name)) return false;
    if (!params.has(fn)) params.set(fn, new Set());
    return params.get(fn)!.add(p.name), true;
  };
  for (const g of given) handParam(g.node ?? byName.get(g.local!), g.index);
  const handed: AsyncPlan["handed"] = [];
  const paramCall = (call: Node, path: Node[]) =>
    call.callee.type === "Identifier" && path.some((n) => params.get(n)?.has(call.callee.name));
  // A handed callback the module keeps (pushed, assigned) is called later under another name: then each
  // call of a variable or parameter of its own that names no function it declares is awaited too.
  const upward = identifiers.map((path) => path.toReversed());
  const variables = new Set(
    upward.filter(([id, parent]) =>
      (parent.type === "VariableDeclarator" && parent.id === id) ||
      (isFunction(parent) && parent.params.includes(id))
    ).map(([id]) => id.name),
  );
  const keeps = () =>
    upward.some(([id, parent, ...above]) =>
      [parent, ...above].some((n) => params.get(n)?.has(id.name)) && parent.callee !== id &&
      !(isFunction(parent) && parent.params.includes(id))
    );
  const keptCall = (call: Node) =>
    call.callee.type === "Identifier" && variables.has(call.callee.name) && !byName.has(call.callee.name) &&
    !bindings.has(call.callee.name) && keeps();
  for (let changed = true; changed;) {
    changed = false;
    for (const path of calls) {
      const call = path[path.length - 1], member = path[path.length - 2];
      // A promise the script chains on itself (`.then`, `.catch`, `.finally`) stays a promise, as in k6.
      if (
        member?.type === "MemberExpression" && member.object === call && PROMISE.has(member.property.name)
      ) {
        if (apiOf(call.callee, bindings) !== null) chained.add(call);
        continue;
      }
      const array = isArrayCall(call) && asyncCallback(callbackOf(call));
      const method = call.callee.type === "MemberExpression" && !call.callee.computed &&
        asyncMethods.has(call.callee.property.name);
      for (const [index, arg] of call.arguments.entries()) {
        const param = arg.type === "Identifier" && path.some((n) => params.get(n)?.has(arg.name));
        if (!asyncCallback(arg) && !param) continue;
        const local = localCallee(call.callee, bindings);
        if (local !== null) handed.push({ ...local, index });
        else if (call.callee.type === "Identifier" && handParam(byName.get(call.callee.name), index)) {
          changed = true;
        }
      }
      const checking = isCheck(call, bindings) &&
        call.arguments[1]?.properties?.some((p: Node) => p.type === "Property" && asyncCallback(p.value));
      const api = checking ? "k6.check" : apiOf(call.callee, bindings);
      // k6's asyncRequest is a promise the script settles itself: sent at once, held as a chained one.
      if (api === ASYNC_REQUEST && chained.add(call)) continue;
      const called = paramCall(call, path) || keptCall(call);
      const named = call.callee.type === "Identifier" && asyncNames.has(call.callee.name);
      if (!(array || method || api !== null || named || called)) continue;
      if (api !== null && !LOOPING.has(api)) blocking.add(call);
      if (array) arrayCalls.add(call);
      if (!awaited.has(call)) awaited.add(call), changed = true;
      const fn = enclosing(path);
      if (fn === null || asyncFunctions.has(fn)) continue;
      asyncFunctions.add(fn), changed = true;
      const name = names.get(fn), owner = methods.get(fn);
      if (name) asyncNames.add(name);
      if (owner !== undefined) asyncMethods.add(owner.key.name ?? String(owner.key.value));
      if (owner?.method || owner?.type === "MethodDefinition") asyncAt.set(fn, owner.key.start);
    }
  }
  // A call that awaits its argument `arg`'s calls: a local module's export's, or a handed parameter's.
  const awaitsArg = (call: Node, arg: Node) => {
    const target = call.callee.type === "Identifier" ? byName.get(call.callee.name) : undefined;
    const p = target?.params[call.arguments.indexOf(arg)];
    return localCallee(call.callee, bindings) !== null ||
      (p !== undefined && !!params.get(target)?.has(p.name));
  };
  const { problems, handsOff } = functionProblems(functions, asyncFunctions, bindings, methods, awaitsArg);
  problems.push(
    ...referenceProblems(identifiers, asyncNames, bindings, awaitsArg),
    ...classBodyProblems(calls, awaited),
  );
  const sets = { awaited, asyncNames, asyncMethods, asyncAt, arrayCalls, asyncFunctions, chained, blocking };
  const racing = [...chained].some((call) => apiOf(call.callee, bindings) === ASYNC_REQUEST);
  return { ...sets, handsOff: handsOff || racing, handed, problems };
}

/** Each method under a plain key (`get() {}`, `get: () => {}`) -> its property; no accessor, constructor. */
function methodsOf(functions: Node[][]): Map<Node, Node> {
  const out = new Map<Node, Node>();
  for (const path of functions) {
    const [fn, owner, , call] = path.slice(-4).reverse();
    if (owner?.value !== fn || owner.computed || !["init", "method"].includes(owner.kind)) continue;
    if (owner.type === "MethodDefinition" || (owner.type === "Property" && !/Call|New/.test(call?.type))) {
      out.set(fn, owner);
    }
  }
  return out;
}

/** Awaited calls in a class field's initializer or a static block, where JavaScript allows no `await`. */
function classBodyProblems(calls: Node[][], awaited: Set<Node>): Problem[] {
  const problems: Problem[] = [];
  for (const path of calls) {
    const call = path[path.length - 1];
    if (!awaited.has(call)) continue;
    for (let k = path.length - 2; k >= 0 && !isFunction(path[k]); k--) {
      const field = path[k].type === "PropertyDefinition" && path[k].value === path[k + 1];
      if (!field && path[k].type !== "StaticBlock") continue;
      problems.push({
        pos: call.start,
        why: "a call that sends or waits in a class field or static block cannot be awaited there " +
          "(JavaScript allows no await in them): make it in a function",
      });
      break;
    }
  }
  return problems;
}

/** `bindings` and the names bound to an instance of a k6 class with async methods (`new grpc.Client()`). */
function withInstances(ast: Node, bindings: Map<string, Binding>): Map<string, Binding> {
  const all = new Map(bindings);
  walk.full(ast, (node: Node) => {
    const [id, init] = node.type === "VariableDeclarator"
      ? [node.id, node.init]
      : node.type === "AssignmentExpression"
      ? [node.left, node.right]
      : [null, null];
    if (id?.type !== "Identifier" || init?.type !== "NewExpression") return;
    const made = classOf(init.callee, bindings);
    if (made !== null) all.set(id.name, { module: made.module, name: `new ${made.name}` });
  });
  return all;
}

function classOf(callee: Node, bindings: Map<string, Binding>): Binding | null {
  if (callee.type === "Identifier") {
    const b = bindings.get(callee.name);
    return b && ASYNC_METHODS[b.module]?.[b.name] ? b : null;
  }
  if (callee.type !== "MemberExpression" || callee.computed || callee.object.type !== "Identifier") {
    return null;
  }
  const b = bindings.get(callee.object.name);
  const name = callee.property.name;
  return b && (b.name === "default" || b.name === "*") && ASYNC_METHODS[b.module]?.[name]
    ? { module: b.module, name }
    : null;
}

function isArrayCall(call: Node): boolean {
  const c = call.callee;
  return c.type === "MemberExpression" && !c.computed &&
    (ARRAY_METHODS.has(c.property.name) || isArrayFrom(call));
}

/** The callback of an array call: `Array.from(xs, fn)`'s second argument, the others' first. */
const callbackOf = (call: Node): Node | undefined => call.arguments[isArrayFrom(call) ? 1 : 0];

export const isArrayFrom = (call: Node) =>
  call.callee.type === "MemberExpression" && call.callee.object.name === "Array" &&
  call.callee.property.name === "from";

export function apiOf(callee: Node, bindings: Map<string, Binding>): string | null {
  if (callee.type === "Identifier") {
    const b = bindings.get(callee.name);
    return b && asyncCallsOf(b)?.has(b.name) ? `${b.module}.${b.name}` : null;
  }
  if (callee.type === "MemberExpression" && !callee.computed && PAGE_CALLS.has(callee.property.name)) {
    return `k6/http.Response.${callee.property.name}`;
  }
  if (callee.type === "MemberExpression" && !callee.computed && callee.object.type === "Identifier") {
    const b = bindings.get(callee.object.name);
    if (b && (b.name === "default" || b.name === "*") && asyncCallsOf(b)?.has(callee.property.name)) {
      return `${b.module}.${callee.property.name}`;
    }
    const methods = b?.name.startsWith("new ") ? ASYNC_METHODS[b.module]?.[b.name.slice(4)] : undefined;
    if (methods?.has(callee.property.name)) return `${b!.module}.${b!.name.slice(4)}.${callee.property.name}`;
  }
  return null;
}

function isCheck(call: Node, bindings: Map<string, Binding>): boolean {
  const b = call.callee.type === "Identifier" ? bindings.get(call.callee.name) : undefined;
  return b?.module === "k6" && b.name === "check";
}

/** The local export `callee` calls (`lib.retry()`) or an exported object's method (`bus.on`), else null. */
function localCallee(callee: Node, bindings: Map<string, Binding>): { module: string; name: string } | null {
  const id = callee.type === "MemberExpression" && !callee.computed ? callee.object : callee;
  const b = id.type === "Identifier" ? bindings.get(id.name) : undefined;
  if (b?.calls === undefined || (id !== callee && b.name === "default")) return null;
  const method = callee.property?.name;
  return { module: b.module, name: id === callee ? b.name : b.name === "*" ? method : `${b.name}.${method}` };
}

/** Where async functions sit that cannot be awaited (a callback, method, generator), and any handed off. */
function functionProblems(
  functions: Node[][],
  asyncFunctions: Set<Node>,
  bindings: Map<string, Binding>,
  methods: Map<Node, Node>,
  awaitsArg: (call: Node, arg: Node) => boolean,
): { problems: Problem[]; handsOff: boolean } {
  const problems: Problem[] = [];
  let handsOff = false;
  for (const path of functions) {
    const fn = path[path.length - 1];
    if (!asyncFunctions.has(fn) || (methods.has(fn) && !fn.generator)) continue;
    if (fn.generator) {
      problems.push({ pos: fn.start, why: "a generator that sends requests cannot be awaited" });
      continue;
    }
    const why = placeProblem(fn, path.slice(0, -1).reverse(), bindings, (call: Node) => awaitsArg(call, fn));
    if (why === HANDED) handsOff = true;
    else if (why !== null) problems.push({ pos: fn.start, why });
  }
  return { problems, handsOff };
}

function placeProblem(
  fn: Node,
  above: Node[],
  bindings: Map<string, Binding>,
  awaitsIt: (call: Node) => boolean,
): string | null {
  const parent = above[0];
  if (parent === undefined || fn.type === "FunctionDeclaration") return null;
  const call = above[2];
  // A check's condition that sends requests: the check is awaited, its condition judged when it settles.
  if (parent.type === "Property" && call?.type === "CallExpression" && isCheck(call, bindings)) return null;
  if (parent.type === "VariableDeclarator" || parent.type === "ExportDefaultDeclaration") return null;
  if (runsLater(fn, parent, above, bindings)) return HANDED;
  if (parent.type === "CallExpression") {
    return awaitsIt(parent) ? null : callbackProblem(fn, parent, bindings);
  }
  if (parent.type === "Property" || parent.type === "MethodDefinition") {
    return "a getter, setter, computed method or one of an object handed to a call sends requests: loadlab " +
      "awaits only calls of functions and named methods; make it one";
  }
  return "a function that sends requests is used as a value here: loadlab awaits only direct calls";
}

/** Why callback `fn` of `call` cannot be awaited, or null (group's body, an array method's callback). */
function callbackProblem(fn: Node, call: Node, bindings: Map<string, Binding>): string | null {
  const api = apiOf(call.callee, bindings);
  if (api === "k6.group" && call.arguments[1] === fn) return null;
  if (isArrayCall(call) && callbackOf(call) === fn) return null;
  const callee = calleeName(call);
  if (callee === "check") return "a check function that sends requests (checks are judged synchronously)";
  return `a callback that sends requests is handed to ${callee}(): loadlab cannot await where it is called`;
}

const SOCKET_CALLS = new Set(["addEventListener", "on"]);

/** Whether `node` (a function or its name) runs later on the VU's loop: a timer, promise, socket callback. */
function runsLater(node: Node, parent: Node, above: Node[], bindings: Map<string, Binding>): boolean {
  if (parent.type === "AssignmentExpression") {
    const to = parent.left;
    return parent.right === node && to.type === "MemberExpression" && !to.computed &&
      /^on[a-z]+$/.test(to.property.name) && isSocket(to.object, above, bindings);
  }
  if (parent.type === "NewExpression") return parent.callee.name === "Promise";
  if (parent.type !== "CallExpression") return false;
  const c = parent.callee, timer = c.type === "Identifier" ? bindings.get(c.name) : undefined;
  if (c === node || HAND_OFFS.has(calleeName(parent))) return true;
  if (timer?.module === "k6/timers") return timer.name.startsWith("set") && parent.arguments[0] === node;
  if (apiOf(c, bindings) === "k6/ws.connect") return parent.arguments.at(-1) === node;
  return c.type === "MemberExpression" && !c.computed && SOCKET_CALLS.has(c.property.name) &&
    isSocket(c.object, above, bindings);
}

/** A name bound to `new WebSocket(...)`, or the socket k6/ws's `connect` hands its callback. */
function isSocket(object: Node, above: Node[], bindings: Map<string, Binding>): boolean {
  if (object.type !== "Identifier") return false;
  if (bindings.get(object.name)?.name === "new WebSocket") return true;
  return above.some((n, k) =>
    isFunction(n) && n.params[0]?.name === object.name && above[k + 1]?.type === "CallExpression" &&
    apiOf(above[k + 1].callee, bindings) === "k6/ws.connect"
  );
}

function calleeName(call: Node): string {
  const c = call.callee;
  if (c.type === "Identifier") return c.name;
  return c.type === "MemberExpression" && !c.computed ? c.property.name : "a call";
}

/** Names of async functions used other than by a direct call (a value whose calls nobody awaits). */
function referenceProblems(
  identifiers: Node[][],
  asyncNames: Set<string>,
  bindings: Map<string, Binding>,
  awaitsArg: (call: Node, arg: Node) => boolean,
): Problem[] {
  const problems: Problem[] = [];
  for (const path of identifiers) {
    const id = path[path.length - 1], parent = path[path.length - 2];
    if (!asyncNames.has(id.name) || isPlainUse(id, parent, bindings)) continue;
    if (parent.type === "CallExpression" && parent.callee !== id && awaitsArg(parent, id)) continue;
    if (runsLater(id, parent, path.slice(0, -1).reverse(), bindings)) continue;
    problems.push({
      pos: id.start,
      why: `${id.name} sends requests and is used as a value here: loadlab awaits only direct calls`,
    });
  }
  return problems;
}

function isPlainUse(id: Node, parent: Node, bindings: Map<string, Binding>): boolean {
  switch (parent?.type) {
    case "CallExpression":
      if (parent.callee === id) return true;
      return (isArrayCall(parent) && callbackOf(parent) === id) ||
        (apiOf(parent.callee, bindings) === "k6.group" && parent.arguments[1] === id);
    case "FunctionDeclaration":
    case "FunctionExpression":
    case "VariableDeclarator":
      return parent.id === id;
    case "MemberExpression":
      return parent.property === id && !parent.computed;
    case "Property":
      return parent.key === id && !parent.shorthand;
    case "ExportSpecifier":
    case "ExportDefaultDeclaration":
      return true;
    default:
      return false;
  }
}
