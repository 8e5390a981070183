/**
 * What `deno check` says, as the one line per problem a script's author reads: the place relative to the
 * script's folder, then the message; a syntax error's `error:` line too. A check started as loadlab starts
 * answers only for the text it checked.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { problemsOf, startEarlyTypeCheck, typeProblems } from "./script_type_check.ts";

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

Deno.test("an early check answers for the text it checked: a script changed since is checked again", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-early-check-" });
  const path = `${dir}/session.ts`;
  const [bad, good] = ['export const n: number = "one";\n', "export const n: number = 1;\n"];
  try {
    await Deno.writeTextFile(path, bad);
    startEarlyTypeCheck(path);
    await Deno.writeTextFile(path, good);
    assertEquals(await typeProblems(path), []);
    startEarlyTypeCheck(path);
    await Deno.writeTextFile(path, bad);
    const refused = await typeProblems(path);
    assertEquals(refused.map((p) => p.split(": ")[0]), ["session.ts:1:14"]);
    startEarlyTypeCheck(path);
    assertEquals(await typeProblems(path), refused);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
