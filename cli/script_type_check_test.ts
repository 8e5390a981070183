/**
 * What `deno check` says, as the one line per problem a script's author reads: the place relative to the
 * script's folder, then the message; a syntax error's `error:` line too. A check started as loadlab starts
 * answers only for the text it checked; a passed one is not run again for the same texts.
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

/** The pid of the `deno check` of `path` that runs (its command line in /proc), or null. */
function checkPid(path: string): string | null {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      if (argv.includes("check") && argv.includes(path)) return entry.name;
    } catch { /* it ended as it was read */ }
  }
  return null;
}

/** Waits until pid's process is gone and reaped (no /proc entry left). */
async function gone(pid: string | null): Promise<void> {
  while (pid !== null && (await Deno.stat(`/proc/${pid}`).then(() => true, () => false))) {
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test({
  name: "an early check answers for the text it checked: a script changed since is checked again",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
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
      // One that ran to its end before the file changed is ended as quietly, and the file checked again.
      startEarlyTypeCheck(path);
      await gone(checkPid(path));
      await Deno.writeTextFile(path, good);
      assertEquals(await typeProblems(path), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a passed check is noted by what it read: the same texts at another path start no check",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "loadlab-check-noted-" });
    const script = 'import { n } from "./n.ts";\nexport const m: number = n;\n';
    const copy = async (name: string, n: string) => {
      await Deno.mkdir(`${dir}/${name}`);
      await Deno.writeTextFile(`${dir}/${name}/n.ts`, n);
      await Deno.writeTextFile(`${dir}/${name}/session.ts`, script);
      return `${dir}/${name}/session.ts`;
    };
    try {
      assertEquals(await typeProblems(await copy("a", "export const n = 1;\n")), []);
      const again = await copy("b", "export const n = 1;\n");
      startEarlyTypeCheck(again);
      assertEquals(checkPid(again), null);
      assertEquals(await typeProblems(again), []);
      // An imported module's text is part of what was read: changed, the script is checked again.
      const changed = await copy("c", 'export const n = "one";\n');
      assertEquals((await typeProblems(changed)).map((p) => p.split(": ")[0]), ["session.ts:2:14"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
