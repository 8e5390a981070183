/**
 * @module
 * The converter's edits of a k6 script's exports: its default export becomes `__k6_main`, run per iteration
 * by the runtime's footer, and its other exports' names are collected for that footer.
 */
import type { Node, Problem } from "./async.ts";

/** One edit of the script's text by position (an insertion when `start` is `end`). */
export interface Edit {
  start: number;
  end: number;
  text: string;
  /** Among insertions at one position, the higher goes first (an outer call's `(await ` first). */
  rank?: number;
}

/** The edits that wrap node `n` in `open` and `close` (`open` before an inner node's at the same place). */
export const around = (n: Node, open: string, close: string): Edit[] => [
  { start: n.start, end: n.start, text: open, rank: n.end },
  { start: n.end, end: n.end, text: close },
];

/** The converted text's line telling the runtime a script has no default function. */
export const NO_MAIN = "\nconst __k6_main = undefined;";

export function exportEdits(ast: Node, source: string, edits: Edit[], problems: Problem[]): string[] {
  const names: string[] = [];
  let main = false;
  for (const s of ast.body) {
    if (s.type === "ExportDefaultDeclaration") {
      main = true;
      defaultEdits(s, edits);
    } else if (s.type === "ExportAllDeclaration" && !s.exported && /^\.{0,2}\//.test(s.source.value)) {
      // `export * from "./m.js"`: its names but its default reach the footer (before the script's own).
      const ns = `__k6_all${s.start}`;
      edits.push({
        start: s.start,
        end: s.end,
        text: `import * as ${ns} from ${s.source.raw}; ${source.slice(s.start, s.end)}`,
      });
      names.unshift(`...Object.fromEntries(Object.entries(${ns}).filter(([k]) => k !== "default"))`);
    } else if (s.type === "ExportNamedDeclaration") {
      const named = s.specifiers?.map((spec: Node) => spec.exported.name ?? spec.exported.value) ?? [];
      if (
        s.source && (!/^\.{0,2}\//.test(s.source.value) || named.length === 0 || named.includes("default"))
      ) {
        problems.push({ pos: s.start, why: "re-exports from another module are not converted" });
      } else if (s.source) {
        // Bound here as well: the runtime's footer reads the script's exports by name.
        const as = s.specifiers.map((spec: Node) => source.slice(spec.exported.start, spec.exported.end));
        const bound = s.specifiers.map((spec: Node) => source.slice(spec.start, spec.end));
        const text = `import { ${bound.join(", ")} } from ${s.source.raw}; export { ${as.join(", ")} };`;
        edits.push({ start: s.start, end: s.end, text });
      }
      names.push(...exportedNames(s.declaration));
      const specs: Node[] = s.specifiers ?? [];
      const kept: string[] = [];
      let local: string | null = null;
      for (const spec of specs) {
        const exportedAs = spec.exported.name ?? spec.exported.value;
        if (exportedAs === "default") local = spec.local.name;
        else {
          kept.push(source.slice(spec.start, spec.end));
          if (exportedAs === spec.local.name || s.source) names.push(exportedAs);
        }
      }
      if (local !== null && !s.source) {
        // `export { main as default }` leaves the module: the runtime's footer is its one default export.
        main = true;
        const rest = kept.length > 0 ? `export { ${kept.join(", ")} };` : "";
        edits.push({ start: s.start, end: s.end, text: `${rest} const __k6_main = ${local};` });
      }
    }
  }
  // A script of scenario functions only: the runtime is told it has no default.
  if (!main) edits.push({ start: ast.end, end: ast.end, text: NO_MAIN });
  return names;
}

/** The names `export function f` or `export const a = 1, b = 2` declares (a pattern's are left out). */
export function exportedNames(d: Node | null): string[] {
  if (d?.type === "FunctionDeclaration") return [d.id.name];
  const vars: Node[] = d?.type === "VariableDeclaration" ? d.declarations : [];
  return vars.filter((v) => v.id.type === "Identifier").map((v) => v.id.name);
}

/** `export default X` made `const __k6_main = X;`; a named function stays a declaration. */
function defaultEdits(s: Node, edits: Edit[]): void {
  const d = s.declaration;
  if (d.type === "FunctionDeclaration" && d.id) {
    edits.push({ start: s.start, end: d.start, text: "" });
    edits.push({ start: d.end, end: d.end, text: ` const __k6_main = ${d.id.name};` });
    return;
  }
  edits.push({ start: s.start, end: d.start, text: "const __k6_main = " });
  edits.push({ start: d.end, end: d.end, text: ";" });
}
