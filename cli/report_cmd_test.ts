import assert from "node:assert/strict";
import { join } from "node:path";
import { makeSeed000, makeSingleAttack } from "../tests/fixtures/make_results.ts";
import { writeReport } from "../report/html/render.ts";
import { runReportCommand } from "./report_cmd.ts";

/** Runs the command with console.error captured; returns the exit code and the stderr lines. */
async function run(argv: string[]): Promise<{ code: number; errors: string[]; logs: string[] }> {
  const [errors, logs]: string[][] = [[], []];
  const [origError, origLog] = [console.error, console.log];
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  console.log = (...a: unknown[]) => logs.push(a.join(" "));
  try {
    return { code: await runReportCommand(argv), errors, logs };
  } finally {
    [console.error, console.log] = [origError, origLog];
  }
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "loadlab_report_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("loadlab report writes one page from several files, with a comparison", async () => {
  await withDir(async (dir) => {
    const [a, b, base, out] = ["a.json", "b.json", "base.json", "report.html"].map((f) => join(dir, f));
    await Deno.writeTextFile(a, JSON.stringify(makeSingleAttack()));
    await Deno.writeTextFile(b, JSON.stringify(makeSeed000(1, 5)));
    await Deno.writeTextFile(base, JSON.stringify(makeSingleAttack()));
    const { code, errors, logs } = await run([a, b, "-o", out, "--compare", base]);
    assert.deepEqual(errors, []);
    assert.equal(code, 0);
    assert.match(logs[0], /, 1 compared with the baseline's run of the same name\)$/);
    const html = await Deno.readTextFile(out);
    assert.match(html, /"name":"attack"/);
    assert.match(html, /"name":"redis-cache\/high#0"/);
    assert.match(html, /"compare":\[\{"name":"attack"/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "a.json",
      "b.json",
      "base.json",
      "report.html",
    ]);
  });
});

Deno.test("a baseline with no run of the same name says that nothing was compared, and names its runs", async () => {
  await withDir(async (dir) => {
    const [a, base, out] = ["a.json", "base.json", "report.html"].map((f) => join(dir, f));
    await Deno.writeTextFile(a, JSON.stringify(makeSingleAttack()));
    await Deno.writeTextFile(base, JSON.stringify(makeSeed000(1, 1)));
    const { code, logs } = await run([a, "-o", out, "--compare", base]);
    assert.equal(code, 0);
    assert.match(
      logs[0],
      /; no run compared: the baseline has no run of their names \(its runs: no-cache\/baseline#0, /,
    );
  });
});

Deno.test("bad inputs print one line naming the file, exit 2 and keep the old output", async () => {
  await withDir(async (dir) => {
    const out = join(dir, "report.html");
    await Deno.writeTextFile(out, "old report");
    const notJson = join(dir, "broken.json"), wrong = join(dir, "wrong.json");
    await Deno.writeTextFile(notJson, "{ nope");
    await Deno.writeTextFile(wrong, JSON.stringify({ schema: "loadlab.results/v1", runs: "x" }));
    const cases: Array<[string[], RegExp]> = [
      [
        [join(dir, "missing.json"), "-o", out],
        /missing\.json: cannot read: no such file; give a results\.json/,
      ],
      [[notJson, "-o", out], /broken\.json: not JSON \(/],
      [
        [wrong, "-o", out],
        /wrong\.json: not a loadlab results file: createdAt: missing; expected a string/,
      ],
      [["-o", out], /^loadlab report: no results file given; e\.g\. loadlab report results\.json/],
      [[notJson, "--bogus"], /^loadlab report: --bogus: unknown flag; see loadlab report --help/],
    ];
    for (const [argv, expected] of cases) {
      const { code, errors } = await run(argv);
      assert.equal(code, 2, argv.join(" "));
      assert.equal(errors.length, 1, errors.join("\n"));
      assert.match(errors[0], expected);
      assert.ok(!errors[0].includes("\n"), "one line");
    }
    assert.equal(await Deno.readTextFile(out), "old report");
  });
});

Deno.test("writeReport replaces the output atomically and leaves no temp file", async () => {
  await withDir(async (dir) => {
    const out = join(dir, "r.html");
    await Deno.writeTextFile(out, "old");
    await writeReport(out, makeSingleAttack());
    assert.match(await Deno.readTextFile(out), /^<!doctype html>/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["r.html"]);
    await assert.rejects(() => writeReport(join(dir, "no/such/dir/r.html"), makeSingleAttack()));
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["r.html"]);
  });
});

Deno.test("loadlab report renders a v1 results file (written before v2) beside a v2 one", async () => {
  await withDir(async (dir) => {
    const [v1, v2, out] = ["v1.json", "v2.json", "report.html"].map((f) => join(dir, f));
    // A v1 file is a v2 file without the optional v2 fields and with the old tag.
    await Deno.writeTextFile(v1, JSON.stringify({ ...makeSeed000(1, 5), schema: "loadlab.results/v1" }));
    await Deno.writeTextFile(v2, JSON.stringify(makeSingleAttack()));
    const { code, errors } = await run([v1, v2, "-o", out]);
    assert.deepEqual(errors, []);
    assert.equal(code, 0);
    const html = await Deno.readTextFile(out);
    assert.match(html, /"name":"redis-cache\/high#0"/);
    assert.match(html, /"name":"attack"/);
  });
});
