/**
 * A script's top level runs once per
 * process however often it is checked, and a k6 conversion is not handed to the type checker. A k6 script or
 * a locustfile an experiment names is converted after planning, one that cannot be refused at its line.
 */
import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { checkPlanScripts, checkScript, isScriptPath } from "./script_check.ts";
import { loadPlan } from "../../scenarios/load.ts";
import type { ExperimentError } from "../../scenarios/experiment_error.ts";

Deno.test("scripts are told from experiment files by their extension", () => {
  assertEquals(["a.ts", "b.mjs", "c.yaml", "d.json", "e.js"].map(isScriptPath), [
    true,
    true,
    false,
    false,
    true,
  ]);
});

Deno.test({
  name: "a script checked twice runs its top level once; a type error is still refused",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const marks = `${dir}/marks.txt`;
      const script = `${dir}/s.ts`;
      await Deno.writeTextFile(
        script,
        `Deno.writeTextFileSync(${JSON.stringify(marks)}, "x", { append: true });\n` +
          "export default async () => {};\n",
      );
      // Limits far above this test process's own memory (the limit is the whole process's RSS).
      await checkScript(script, 4_096);
      await checkScript(script, 8_192);
      assertEquals(await Deno.readTextFile(marks), "x");
      const typed = `${dir}/typed.ts`;
      await Deno.writeTextFile(typed, 'const n: number = "one";\nexport default async () => n;\n');
      await rejects(checkScript(typed, 4_096), /does not type-check: typed\.ts:1:7/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a k6 conversion (JavaScript loadlab wrote) is imported without a type check",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // A conversion is known by its place (`loadlab/k6/HASH/`) under any cache folder.
    const cache = await Deno.makeTempDir();
    try {
      // Only a type check refuses this file (JavaScript checked on request): its import is fine.
      const folder = `${cache}/loadlab/k6/0123456789abcdef01234567`;
      await Deno.mkdir(folder, { recursive: true });
      await Deno.writeTextFile(
        `${folder}/one.js`,
        "// @ts-check\nconst n = 1;\nn.trim?.();\nexport default () => {};\n",
      );
      await checkScript(`${folder}/one.js`, 4_096);
    } finally {
      await Deno.remove(cache, { recursive: true });
    }
  },
});

Deno.test("a k6 script or a locustfile is converted after planning, a bad one or a folder refused", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-script-convert-" });
  try {
    const k6 = 'import http from "k6/http";\nexport default function () {\n  http.get("http://x/");\n}\n';
    const locust = "from locust import HttpUser, task\n\nclass U(HttpUser):\n    @task\n    def t(self):\n" +
      '        self.client.get("/")\n';
    Deno.writeTextFileSync(`${dir}/k6.js`, k6);
    Deno.writeTextFileSync(`${dir}/bad.js`, k6.replace('"http://x/");', '"http://x/";'));
    Deno.writeTextFileSync(`${dir}/locustfile.py`, locust);
    Deno.writeTextFileSync(`${dir}/bad.py`, locust.replace("def t(self):", "def t(self:"));
    Deno.mkdirSync(`${dir}/folder.js`);
    const planOf = (script: string) =>
      loadPlan(
        `name: s\ntargets:\n  app: { url: "http://127.0.0.1:9" }\nscript: ./${script}\n` +
          "loads:\n  a: { model: connections, connections: 2, duration: 1s }\n",
        { file: `${dir}/exp.yaml`, preflight: false },
      );
    for (const script of ["k6.js", "locustfile.py"]) {
      const planned = await planOf(script);
      // Planning reads no script: its path is the file's until the conversion step.
      assertEquals(planned.runs[0].attack.script?.path, `${dir}/${script}`);
      await checkPlanScripts(planned);
      const converted = planned.runs[0].attack.script!.path;
      ok(converted !== `${dir}/${script}` && Deno.readTextFileSync(converted).length > 0, converted);
    }
    for (
      const [script, line] of [["bad.js", /bad\.js:3/], ["bad.py", /bad\.py:\d+: invalid syntax/], [
        "folder.js",
        /folder\.js: .*regular/,
      ]] as const
    ) {
      await rejects(checkPlanScripts(await planOf(script)), (err: ExperimentError) => {
        assertEquals(err.issues.map((i) => i.path), ["script"]);
        return err.name === "ExperimentError" && line.test(err.issues[0].message);
      });
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
