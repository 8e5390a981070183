/**
 * @module
 * A k6 script made a loadlab session script, edited by position so every line keeps its number; what
 * cannot be converted is a `K6ConvertError` listing each place (`file:line: why`), before any load.
 */
import * as acorn from "acorn";
import { stripTypeScriptTypes } from "node:module";
import { apiOf, type Binding, isArrayFrom, isFunction, type Node, planAsync, type Problem } from "./async.ts";
import { contextEdits, defersCallbacks, importsMetrics, RESUMING_AWAIT } from "./context.ts";
import { jslibOf, K6_REFUSED, moduleUrl, PAGE_CALLS, RUNTIME_URL } from "./modules.ts";
import { around, type Edit, exportEdits, exportedNames } from "./exports.ts";
import {
  declaredNames,
  everyNode,
  exportsK6Options,
  importsK6ByTokens,
  initVuReads,
  keepsVuState,
  nestingProblem,
  parseOrNull,
  parseProblem,
  refusedConstructs,
} from "./refusals.ts";

/** What holds the iteration until the call it opens settles (runtime.ts). */
const HELD = "__k6.held(";

/** Most places a refusal lists: each place's line is found by scanning the text from its start. */
const MAX_PROBLEMS_LISTED = 20;

export class K6ConvertError extends Error {
  override name = "K6ConvertError";
  constructor(readonly problems: string[]) {
    super(`cannot run this k6 script: ${problems.join("; ")}`);
  }
}

type K6Conversion = { code: string; asyncExports: ReadonlySet<string> };
type Locals = ReadonlyMap<string, ReadonlySet<string>>;

export interface K6ModuleContext {
  /** Each local module the text imports, by its specifier as written: its exports made asynchronous. */
  locals: Locals;
  /** A module the script imports (no session of its own: its exports stay as they are). */
  library: boolean;
  /** Whether the script or any of its modules imports k6/metrics, holds callbacks, or keeps VU state. */
  facts: { metrics: boolean; stores: boolean; vuState: boolean };
  /** This module's exports its importers hand a function that sends requests, at an argument. */
  handed?: Array<{ name: string; index: number }>;
  /** Where the conversion puts the local exports this module hands such a function (by specifier). */
  handing?: Array<{ module: string; name: string; index: number }>;
}

/** The name a local module's default export is bound by (its async calls list it under this name). */
const LOCAL_DEFAULT = "(default)";

/** Whether `source` names a k6 module (imported, re-exported, `import()`, `require()`) or k6 options. */
export function isK6Source(source: string): boolean {
  // A k6 script with a syntax error is still one: its conversion reports the error at its line.
  // A module exporting nothing is no session (a session exports its default): k6 runs it, and says why not.
  const body = parseOrNull(source)?.body;
  return importsK6ByTokens(source) || (body?.some(exportsK6Options) ?? false) ||
    body?.every((s: Node) => !s.type.startsWith("Export")) === true;
}

/** A file's text as the ES module k6 runs: its types stripped (`.ts`), CommonJS's as imports and exports. */
export function asModule(source: string, file: string): string {
  return fromCommonJs(/\.m?ts$/.test(file) ? withoutTypes(source, file) : source);
}

/** Bundlers' helpers (esbuild's, webpack's) that define a module's exports by getters. */
const EXPORT_GETTERS = new Set(["__export", "__webpack_require__.d"]);
/** Bundlers' helpers that wrap a module: `__toESM(require(m))`, `m_default = __webpack_require__.n(m)`. */
const WRAPPERS = ["__toESM", "__webpack_require__.n"];

/** k6's top-level CommonJS (`require`, `exports.x`, `module.exports`) and bundles' wrappers as ES modules. */
function fromCommonJs(source: string): string {
  const ast = /\b(require|exports)\b/.test(source) ? parseOrNull(source) : null;
  const edits: Edit[] = [],
    alias = new Map<string, string>(),
    text = (n: Node) => source.slice(n.start, n.end);
  const cut = (start: number, end: number, text = "") => edits.push({ start, end, text });
  const [only] = ast?.body ?? [], fn = ast?.body.length === 1 ? only.expression?.callee : undefined;
  const bundle = ast !== null && /__webpack_require__|__toESM\(/.test(source);
  const bundled = bundle && fn && isFunction(fn) && fn.body.body;
  if (bundled) cut(only.start, fn.body.start + 1), cut(fn.body.end - 1, only.end);
  // k6 runs a file with import or export as an ES module: its `module` and `exports` are no CommonJS.
  const esm = ast?.body.some((s: Node) => /^(Import|Export)/.test(s.type)), mixed = esm && !bundle;
  if (mixed) edits.push(...mixedEdits(ast));
  const named: string[] = [];
  for (const s of bundled || (ast?.body ?? [])) {
    const d = s.type === "VariableDeclaration" && s.declarations.length === 1 ? s.declarations[0] : null;
    const init = d?.init?.callee?.name === "__toESM" ? d.init.arguments[0] : d?.init;
    const from = init?.type === "CallExpression" && init.callee.name === "require" ? init.arguments[0] : null;
    const names = d?.id.type === "Identifier" ? d.id.name : d?.id.type === "ObjectPattern" &&
      d.id.properties.every((p: Node) => !p.computed && p.value?.type === "Identifier") &&
      `{ ${d.id.properties.map((p: Node) => `${p.key.name} as ${p.value.name}`).join(", ")} }`;
    if (typeof from?.value === "string" && names && !source.slice(s.start, s.end).includes("\n")) {
      cut(s.start, s.end, `import ${names} from ${JSON.stringify(from.value)};`);
    }
    const to = !mixed && s.expression?.operator === "=" ? s.expression.left : null;
    const holder = to?.type === "MemberExpression" && !to.computed ? to.object : null;
    if (
      holder?.name === "exports" || (holder?.object?.name === "module" && holder.property?.name === "exports")
    ) {
      const name = to.property.name, exported = name === "default" ? "default " : `const ${name} = `;
      cut(s.start, s.expression.right.start, `export ${exported}`);
      named.push(name);
    }
    // `module.exports = { options, default() {} }`: each plain key exported after it (a name kept as it is).
    const props: Node[] | false = to?.object?.name === "module" && to.property.name === "exports" &&
      s.expression.right.type === "ObjectExpression" && s.expression.right.properties;
    const keyOf = (p: Node) => p.computed ? undefined : p.key?.name ?? p.key?.value;
    if (props && props.every((p) => keyOf(p) !== undefined)) {
      cut(s.start, s.expression.right.start, "const __k6_cjs = ");
      const out = props.map((p) => {
        const k = keyOf(p);
        named.push(k);
        if (k === "default") return "export default __k6_cjs.default;";
        return p.value?.name === k ? `export { ${k} };` : `export const ${k} = __k6_cjs.${k};`;
      });
      cut(s.end, s.end, ` ${out.join(" ")}`);
    }
  }
  // As k6's CommonJS, a default import is the exports object.
  if (named.length > 0 && !named.includes("default")) {
    cut(source.length, source.length, `\nexport default { ${[...new Set(named)].join(", ")} };`);
  }
  everyNode(bundle ? ast : { type: "Program", body: [] }, (n: Node) => {
    const init = n.type === "VariableDeclarator" && n.init?.type === "CallExpression" ? n.init : null;
    const wrap = WRAPPERS.indexOf(init === null ? "" : text(init.callee)), callee = n.callee;
    if (wrap >= 0) alias.set(n.id.name, wrap === 0 ? n.id.name : init.arguments[0].name);
    if (wrap === 1) cut(init.start, init.end, "null");
    // A use of a module so wrapped (after it, as walked): `m_default()` and `m.default` are the module.
    const call = n.type === "CallExpression", member = n.property?.name === "default";
    const to = call && n.arguments.length === 0 ? alias.get(callee.name) : member && alias.get(n.object.name);
    if (to) cut(n.start, n.end, to);
    if (call && callee.type === "SequenceExpression" && callee.expressions[0].value === 0) {
      cut(callee.start, callee.end, text(callee.expressions[1]));
    }
    const getters = call && EXPORT_GETTERS.has(text(callee)) ? n.arguments[1]?.properties : undefined;
    if (getters?.every((p: Node) => p.value.type === "ArrowFunctionExpression")) {
      const names = getters.map((p: Node) => `${text(p.value.body)} as ${p.key.name ?? p.key.value}`);
      cut(n.start, n.end, `export { ${names.join(", ")} }`);
      cut(0, 0, "var module = { exports: {} }, exports = module.exports; ");
    }
  });
  // None of these, no import nor export, and module.exports set in a function (UMD): k6's CommonJS wrapper.
  if (edits.length === 0 && !esm && /\bmodule\.exports\s*=/.test(source)) {
    cut(0, 0, "var module = { exports: {} }, exports = module.exports; (function () {");
    const end = "\n}).call(exports);\nexport default module.exports.default ?? module.exports;";
    cut(source.length, source.length, end);
  }
  return applyEdits(source, edits);
}

/**
 * An ES module's reads of `module` and `exports` (undeclared) as k6 runs them: each throws k6's error where
 * it is reached (its init code: the script's exception, 107), the line kept.
 */
function mixedEdits(ast: Node): Edit[] {
  const declared = declaredNames(ast), edits: Edit[] = [];
  everyNode(ast, (n: Node, [p]: Node[]) => {
    if (n.type !== "Identifier" || !/^(module|exports)$/.test(n.name) || declared.has(n.name)) return;
    if ((p.property === n || p.key === n) && !p.computed) return;
    const why = `you are trying to access identifier "${n.name}", this likely is due to mixing ECMAScript ` +
      "Modules (ESM) and CommonJS syntax: use only one or the other";
    edits.push({ start: n.start, end: n.end, text: `(() => { throw new Error(${JSON.stringify(why)}) })()` });
  });
  return edits;
}

/**
 * A `.ts`/`.mts` file's JavaScript, as k6 runs TypeScript: types blanked so every line keeps its place; an
 * enum, namespace or parameter property compiled (its lines may move); a syntax error refused at its line.
 */
function withoutTypes(source: string, file: string): string {
  try {
    const stripped = stripTypeScriptTypes(source);
    // An export of a type (`export { User }`) is JavaScript only once transformed away.
    const ast = parseOrNull(stripped);
    if (ast !== null) return withoutTypeImports(stripped, ast);
  } catch { /* transformed below */ }
  try {
    return stripTypeScriptTypes(source, { mode: "transform" });
  } catch (err) {
    const m = /^(\w*Error: )?([^\n]*)[\s\S]*:(\d+):\d+\s*$/.exec(String((err as Error).message));
    throw new K6ConvertError([`${file}:${m?.[3] ?? 1}: syntax error: ${m?.[2] ?? String(err)}`]);
  }
}

/** `js` with each import of names it never reads blanked, lines kept: k6's esbuild drops such an import. */
function withoutTypeImports(js: string, ast: Node): string {
  const read = new Set<string>();
  for (const s of ast.body) {
    if (s.type !== "ImportDeclaration") everyNode(s, (n) => n.type === "Identifier" && read.add(n.name));
  }
  for (const s of ast.body.toReversed()) {
    const names: Node[] = s.type === "ImportDeclaration" ? s.specifiers : [];
    if (names.length > 0 && names.every((spec) => !read.has(spec.local.name))) {
      js = js.slice(0, s.start) + js.slice(s.start, s.end).replace(/[^\n]/g, " ") + js.slice(s.end);
    }
  }
  return js;
}

/** Converts k6 `source` (`file` in problems, `dir` for `open()`); no `modules`: a local import refused. */
export function convertK6(
  source: string,
  file: string,
  dir: string,
  readable = false,
  modules?: K6ModuleContext,
): K6Conversion {
  let ast: Node;
  try {
    ast = acorn.parse(source, { ecmaVersion: "latest", sourceType: "module", locations: true });
  } catch (err) {
    const { line, why } = parseProblem(err);
    throw new K6ConvertError([`${file}:${line}: ${why}`]);
  }
  const lineOf = (pos: number) => acorn.getLineInfo(source, pos).line;
  const deep = nestingProblem(ast);
  if (deep !== null) throw new K6ConvertError([`${file}:${lineOf(deep.pos)}: ${deep.why}`]);
  const edits: Edit[] = [];
  const problems: Problem[] = [];
  const bindings = importEdits(ast, edits, problems, modules?.locals, modules?.facts.vuState);
  problems.push(...refusedConstructs(ast, bindings));
  const ownExports = modules?.library ? libraryExports(ast, problems) : [];
  const given = (modules?.handed ?? []).flatMap(({ name, index }) => {
    const [exported, method] = name.split(".");
    return ownExports.filter((e) => e.exported === exported).map((e) => {
      const node = method ? methodOf(ast, e.local, method) : e.node;
      if (method && !node) {
        const why = `${name}() is handed a callback that sends requests: loadlab awaits it in a method of ` +
          "an object literal only";
        problems.push({ pos: 0, why });
      }
      return { local: method ? undefined : e.local, node, index };
    });
  });
  const plan = planAsync(ast, bindings, given);
  modules?.handing?.push(...plan.handed);
  problems.push(...plan.problems);
  for (const fn of plan.asyncFunctions) {
    const at = plan.asyncAt.get(fn) ?? fn.start;
    if (!fn.async) edits.push({ start: at, end: at, text: "async " });
  }
  problems.push(...awaitedInParameters(plan.asyncFunctions, plan.awaited));
  // Awaits carry the VU (context.ts) unless callbacks run later: then awaited calls hold the iteration.
  const handsOff = defersCallbacks(ast) || plan.handsOff || modules?.facts.stores;
  // Init code reading __VU, or VU code changing top-level state: each VU its own instance of every module.
  const vuReads = initVuReads(ast), library = modules?.library ?? false;
  const vuState = modules?.facts.vuState ?? keepsVuState(ast);
  const perVu = vuReads.length > 0 || (!library && vuState);
  for (const n of vuReads) {
    if (library) {
      problems.push({ pos: n.start, why: "__VU read by a module's init code: read it in a function" });
    }
    edits.push({ start: n.start, end: n.end, text: "__k6.initVu(import.meta.url)" });
  }
  const held = handsOff || perVu, resumes = !readable && !held;
  const opener = resumes ? RESUMING_AWAIT : held ? `(await ${HELD}` : "(await ";
  for (const call of plan.awaited) {
    const closer = !held ? ")" : plan.blocking.has(call) ? "))" : ", false))";
    awaitEdits(call, plan.arrayCalls.has(call), opener, closer, edits);
    // k6's group() throws on a body written async (the conversion makes bodies async: the runtime is told).
    const body = call.arguments?.[1];
    if (body?.async && isFunction(body) && apiOf(call.callee, bindings) === "k6.group") {
      edits.push(...around(body, "__k6.writtenAsync(", ")"));
    }
  }
  // k6's check() throws on a condition written async (the conversion makes some async: the runtime is told).
  everyNode(ast, (n) => {
    const b = n.type === "CallExpression" ? bindings.get(n.callee.name) : undefined;
    if (b?.module !== "k6" || b.name !== "check") return;
    for (const p of n.arguments[1]?.properties ?? []) {
      if (isFunction(p.value) && p.value.async) edits.push(...around(p.value, "__k6.writtenAsync(", ")"));
    }
  });
  if (resumes) edits.push(...contextEdits(ast, plan.asyncFunctions));
  for (const call of held ? plan.chained : []) {
    edits.push(...around(call, "__k6.chained(", ")"));
  }
  const exported = library ? [] : exportEdits(ast, source, edits, problems);
  if (problems.length > 0) {
    const sorted = problems.sort((a, b) => a.pos - b.pos);
    // One line for each place and why, however often the line has it.
    const listed = [
      ...new Set(sorted.slice(0, MAX_PROBLEMS_LISTED).map((p) => `${file}:${lineOf(p.pos)}: ${p.why}`)),
    ];
    const more = Math.max(0, sorted.length - MAX_PROBLEMS_LISTED),
      kinds = "more places of the same kinds (fix these and run again)";
    if (more > 0) listed.push(`and ${more.toLocaleString("en-US")} ${kinds}`);
    throw new K6ConvertError(listed);
  }
  const html = parsesHtml(ast) ? `import ${JSON.stringify(moduleUrl("k6/html"))}; ` : "";
  // k6's global timers are k6/timers' (the iteration waits for them), unless the script declares its own.
  const declared = declaredNames(ast), timers = [...TIMERS].filter((t) => !declared.has(t)).join(", ");
  const timed = timers && `import { ${timers} } from ${JSON.stringify(moduleUrl("k6/timers"))}; `;
  edits.push(...absentGlobalEdits(ast, declared));
  const runtime = `import * as __k6 from ${JSON.stringify(RUNTIME_URL)}; ${html}${timed}`;
  if (library) {
    const made = ownExports.filter((e) =>
      e.local !== undefined ? plan.asyncNames.has(e.local) : plan.asyncFunctions.has(e.node)
    );
    const asyncExports = new Set([
      ...made.map((e) => e.exported),
      ...[...plan.asyncMethods].map((m) => `.${m}`),
    ]);
    const open = declared.has("open") ? "" : `const open = __k6.openIn(${JSON.stringify(dir)}); `;
    return { code: runtime + open + applyEdits(source, edits), asyncExports };
  }
  const header = `${runtime}__k6.scriptDir(${JSON.stringify(dir)}); `;
  // What the runtime may skip for this script; a readable conversion, edited on, skips nothing.
  const metrics = importsMetrics(ast) || (modules?.facts.metrics ?? false);
  const skips = (readable ? "" : `, resumes: ${resumes}, metrics: ${metrics}`) +
    (plan.handsOff || plan.chained.size > 0 ? ", sendsLater: true" : "") +
    (perVu ? ", url: import.meta.url" : "");
  const footer = `\n;export default __k6.session({ main: __k6_main, exports: { ${
    exported.join(", ")
  } }${skips} });\n`;
  return { code: header + applyEdits(source, edits) + footer, asyncExports: new Set() };
}

type LibraryExport = { exported: string; local?: string; node?: Node };

/** A local module's exports (the default's named LOCAL_DEFAULT); a re-export is refused. */
function libraryExports(ast: Node, problems: Problem[]): LibraryExport[] {
  const out: LibraryExport[] = [];
  for (const s of ast.body) {
    if (s.type === "ExportDefaultDeclaration") {
      const d = s.declaration;
      out.push({ exported: LOCAL_DEFAULT, ...(d.type === "Identifier" ? { local: d.name } : { node: d }) });
    } else if (s.type === "ExportAllDeclaration" || (s.type === "ExportNamedDeclaration" && s.source)) {
      problems.push({ pos: s.start, why: "re-exports from another module are not converted" });
    } else if (s.type === "ExportNamedDeclaration") {
      for (const name of exportedNames(s.declaration)) out.push({ exported: name, local: name });
      for (const spec of s.specifiers ?? []) {
        const as = spec.exported.name ?? spec.exported.value;
        out.push({ exported: as === "default" ? LOCAL_DEFAULT : as, local: spec.local.name });
      }
    }
  }
  return out;
}

/** The function of method `key` of the object literal top-level `name` is bound to (`const bus = {}`). */
function methodOf(ast: Node, name: string | undefined, key: string): Node | undefined {
  for (const s of ast.body) {
    const d = s.type === "ExportNamedDeclaration" ? s.declaration : s;
    const v = d?.type === "VariableDeclaration" ? d.declarations.find((v: Node) => v.id.name === name) : null;
    const method = v?.init?.properties?.find((p: Node) => !p.computed && (p.key.name ?? p.key.value) === key);
    if (method !== undefined) return isFunction(method.value) ? method.value : undefined;
  }
}

const TIMERS = ["setTimeout", "setInterval", "clearTimeout", "clearInterval"];

/** k6's globals but its arrays and errors (its JavaScript's own, probed under k6 v1.8.1). */
const K6_GLOBALS = new Set(`Object Function String Number BigInt RegExp Date Boolean Proxy Reflect eval Math
JSON ArrayBuffer DataView Symbol WeakSet WeakMap Map Set Promise globalThis NaN undefined Infinity isNaN
parseInt parseFloat isFinite decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape
console global require open module exports crypto __ENV __VU __ITER setTimeout setInterval clearTimeout
clearInterval`.split(/\s+/));

/**
 * Reads of globals k6's JavaScript lacks (`URL`, `btoa`, `fetch`...), unless declared: each throws k6's
 * ReferenceError, `typeof` is "undefined"; `globalThis.X` is the script's own slot, so a polyfill works;
 * `typeof __ITER` is "undefined" in the init code, as k6's.
 */
function absentGlobalEdits(ast: Node, declared: Set<string>): Edit[] {
  const edits: Edit[] = [];
  const lacked = (name: unknown): name is string =>
    typeof name === "string" && Object.hasOwn(globalThis, name) && !K6_GLOBALS.has(name) &&
    !/(Array|Error)$/.test(name) && !declared.has(name);
  everyNode(ast, (n, [p]) => {
    const o = n.object,
      on = n.type === "MemberExpression" && /^global(This)?$/.test(o.name) && !declared.has(o.name);
    if (on && lacked(n.computed ? n.property.value : n.property.name)) {
      return void edits.push({ start: o.start, end: o.end, text: "__k6.shims" });
    }
    const typeOf = p?.type === "UnaryExpression" && p.operator === "typeof";
    if (typeOf && n.type === "Identifier" && n.name === "__ITER" && !declared.has(n.name)) {
      return void edits.push({ start: p.start, end: p.end, text: "__k6.iterType()" });
    }
    const name = n.type === "Identifier" && lacked(n.name) ? n.name : "";
    if (!name) return;
    const key = (p.property === n || p.key === n) && !p.computed, set = p.left === n || p.operator === "++";
    if (key || set || p.operator === "--" || p.shorthand || p.label === n || /^Export/.test(p.type)) return;
    const at = typeOf ? p : n;
    const text = typeOf ? `typeof __k6.shims.${name}` : `(__k6.absent(${JSON.stringify(name)}))`;
    edits.push({ start: at.start, end: at.end, text });
  });
  return edits;
}

/** Whether the script calls `.html(`, `.clickLink(` or `.submitForm(`: it loads the HTML parser. */
function parsesHtml(ast: Node): boolean {
  let found = false;
  everyNode(ast, ({ type, callee: c }) => {
    found ||= type === "CallExpression" && c.type === "MemberExpression" && !c.computed &&
      (c.property.name === "html" || PAGE_CALLS.has(c.property.name));
  });
  return found;
}

function importEdits(ast: Node, edits: Edit[], problems: Problem[], locals?: Locals, perVu = false) {
  const bindings = new Map<string, Binding>();
  for (const s of ast.body) {
    if (s.type !== "ImportDeclaration") continue;
    const from = String(s.source.value);
    const calls = locals?.get(from);
    if (calls !== undefined) {
      if (perVu) edits.push({ start: s.start, end: s.end, text: vuImport(s) });
      bind(s, from, bindings, calls);
      continue;
    }
    // A jslib.k6.io library or a k6 module: imported from this folder's file that stands in for it.
    const jslib = jslibOf(from);
    if (jslib === undefined && from !== "k6" && !from.startsWith("k6/")) {
      const why = importProblem(from);
      if (why !== null) problems.push({ pos: s.start, why });
      continue;
    }
    const url = jslib?.url ?? moduleUrl(from);
    if (url === undefined) {
      problems.push({ pos: s.start, why: K6_REFUSED[from] ?? `${from} is not a k6 module loadlab converts` });
      continue;
    }
    edits.push({ start: s.source.start, end: s.source.end, text: JSON.stringify(url) });
    bind(s, jslib?.module ?? from, bindings);
  }
  return bindings;
}

/** Local import `s` as its importer's VU's instance (`?vu=N`), bound once loaded (a later change unseen). */
function vuImport(s: Node): string {
  const from = `(await import(__k6.vuUrl(${JSON.stringify(s.source.value)}, import.meta.url)))`;
  const key = (spec: Node) => JSON.stringify(spec.imported?.name ?? spec.imported?.value ?? "default");
  return s.specifiers.map((spec: Node) =>
    `const ${spec.local.name} = ${from}${spec.type === "ImportNamespaceSpecifier" ? "" : `[${key(spec)}]`};`
  ).join(" ");
}

/** The names import `s` binds from `module`; a local module's default binds as LOCAL_DEFAULT. */
function bind(s: Node, module: string, bindings: Map<string, Binding>, calls?: ReadonlySet<string>): void {
  for (const spec of s.specifiers) {
    const name = spec.type === "ImportDefaultSpecifier"
      ? (calls === undefined ? "default" : LOCAL_DEFAULT)
      : spec.type === "ImportNamespaceSpecifier"
      ? "*"
      : spec.imported.name ?? spec.imported.value;
    bindings.set(spec.local.name, calls === undefined ? { module, name } : { module, name, calls });
  }
}

function importProblem(from: string): string | null {
  if (/^https?:\/\//.test(from)) {
    return `${from}: loadlab fetches no remote module (it runs offline; of jslib.k6.io it ships k6-utils, ` +
      "k6-summary, papaparse, url and httpx): download it beside the script and import it by its relative " +
      "path (./name.js)";
  }
  if (from.startsWith(".") || from.startsWith("/")) {
    return `${from}: a local module converts with the script it is imported by (loadlab run the script)`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(from)) return null;
  return `${from}: a bare module name resolves to nothing (k6 refuses it too); copy its functions into the script`;
}

/** `(await call)`, or for an array method `(await __k6.array("m", xs, callback, ...))`. */
function awaitEdits(call: Node, array: boolean, opener: string, closer: string, edits: Edit[]): void {
  if (!array) return void edits.push(...around(call, opener, closer));
  // `Array.from(xs, fn)` is a map of the array it makes: `__k6.array("map", Array.from(xs), fn)`.
  const from = isArrayFrom(call), method = from ? "map" : call.callee.property.name;
  edits.push(...around(call, `${opener}__k6.array(${JSON.stringify(method)}, `, closer));
  if (from) edits.push({ start: call.arguments[0].end, end: call.arguments[1].start, text: "), " });
  else edits.push({ start: call.callee.object.end, end: call.arguments[0].start, text: ", " });
}

/** Calls to await in a parameter's default value, where JavaScript allows no await: refused. */
function awaitedInParameters(functions: Iterable<Node>, awaited: Iterable<Node>): Problem[] {
  const params = [...functions].flatMap((fn) => fn.params),
    why = "a call that sends or waits in a " +
      "parameter's default value cannot be awaited there: move it into the function's body";
  const within = (call: Node) => params.some((p: Node) => p.start <= call.start && call.end <= p.end);
  return [...awaited].filter(within).map((call) => ({ pos: call.start, why }));
}

/** The source with `edits` made; a replaced span keeps its line breaks, so every line keeps its number. */
function applyEdits(source: string, edits: Edit[]): string {
  // By position; at one position a replacement before an insertion, and the wider of two insertions first.
  const sorted = edits.map((e, k) => ({ ...e, k })).sort((a, b) =>
    a.start - b.start || b.end - a.end || (b.rank ?? 0) - (a.rank ?? 0) || a.k - b.k
  );
  let out = "", at = 0;
  for (const e of sorted) {
    out += source.slice(at, e.start);
    const removed = source.slice(e.start, e.end);
    out += e.text + "\n".repeat(removed.split("\n").length - 1);
    at = Math.max(at, e.end);
  }
  return out + source.slice(at);
}
