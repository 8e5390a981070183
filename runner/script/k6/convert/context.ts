/**
 * @module
 * How converted code knows its VU without a context entered per iteration (about 1.5 us each): every
 * `await` becomes `__k6.back(__k6.context(), await X)`, making the VU current again as its function resumes.
 */
import { isFunction, type Node, PROMISE } from "./async.ts";
import { everyNode, importsFrom } from "./refusals.ts";
import { around, type Edit } from "./exports.ts";
import { moduleUrl } from "./modules.ts";

/** What the converter inserts before an awaited call: restoring the VU once the call resumes. */
export const RESUMING_AWAIT = "__k6.back(__k6.context(), await ";

/** The files of k6 modules whose callbacks run later, from events (k6/ws, k6/net/grpc, k6/timers...). */
const EVENT_FILES = /\/(ws|grpc|timers|streams)\.ts$/;
const LATER = new Set(["setTimeout", "setInterval", "setImmediate", "queueMicrotask"]);

/** Whether the script hands callbacks over to run later: it needs the context entered per iteration. */
export function defersCallbacks(ast: Node): boolean {
  let found = importsFrom(ast, (from) => EVENT_FILES.test(moduleUrl(from) ?? ""));
  everyNode(ast, (n: Node) => {
    found ||= (n.type === "Identifier" && LATER.has(n.name)) || (n.type === "ForOfStatement" && n.await) ||
      (isFunction(n) && n.async && n.generator) ||
      (n.callee?.type === "MemberExpression" && !n.callee.computed && PROMISE.has(n.callee.property.name));
  });
  return found;
}

/** Whether the script imports k6/metrics or `group` (`group_duration`): else an iteration adds no metric. */
export function importsMetrics(ast: Node): boolean {
  return ast.body.some((s: Node) =>
    s.type === "ImportDeclaration" &&
    (s.source.value === "k6/metrics" ||
      (s.source.value === "k6" &&
        s.specifiers.some((i: Node) => i.type !== "ImportSpecifier" || i.imported.name === "group")))
  );
}

export function contextEdits(ast: Node, madeAsync: ReadonlySet<Node>): Edit[] {
  const edits: Edit[] = [];
  everyNode(ast, (n: Node) => {
    if (n.type === "AwaitExpression") {
      edits.push(...around(n, "__k6.back(__k6.context(), ", ")"));
    } else if (isFunction(n) && (n.async || madeAsync.has(n)) && n.body.type === "BlockStatement") {
      edits.push(...restoreEdits(n.body));
    }
  });
  return edits;
}

function restoreEdits(body: Node): Edit[] {
  const blocks: Node[] = [];
  everyNode(body, (n: Node) => {
    if (n.type !== "TryStatement") return;
    if (n.handler) blocks.push(n.handler.body);
    if (n.finalizer) blocks.push(n.finalizer);
  }, false);
  if (blocks.length === 0) return [];
  // First at its position (before an await's opener right after the brace).
  const first = Number.MAX_SAFE_INTEGER, at = body.start + 1;
  return [
    { start: at, end: at, text: "const __k6c = __k6.context(); ", rank: first },
    ...blocks.map((b) => ({ start: b.start + 1, end: b.start + 1, text: "__k6.back(__k6c); ", rank: first })),
  ];
}
