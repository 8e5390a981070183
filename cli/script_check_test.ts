/**
 * What `deno check` says, as the one line per problem a script's author reads: the place relative to the
 * script's folder, then the message; a syntax error's `error:` line too.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { isScriptPath, problemsOf } from "./script_check.ts";

Deno.test("type errors read as file:line:col: message", () => {
  const text = "TS2322 [ERROR]: Type 'number' is not assignable to type 'string'.\n" +
    '  const status: string = (await s.get("/json")).status;\n' +
    "        ~~~~~~\n    at file:///work/s/session.ts:4:9\n\nerror: Type checking failed.\n";
  assertEquals(problemsOf(text, "/work/s"), [
    "session.ts:4:9: Type 'number' is not assignable to type 'string'.",
  ]);
});

Deno.test("a syntax error keeps its place; unknown output its first line", () => {
  const text = "error: The module's source code could not be parsed: Expected ',', got ';' at " +
    "file:///work/s/a.js:1:47\n\n  export default\n";
  assertEquals(problemsOf(text, "/work/s").length, 1);
  assertEquals(problemsOf("something else\nmore", "/work/s"), ["something else"]);
});

Deno.test("scripts are told from experiment files by their extension", () => {
  assertEquals(["a.ts", "b.mjs", "c.yaml", "d.json", "e.js"].map(isScriptPath), [
    true,
    true,
    false,
    false,
    true,
  ]);
});
