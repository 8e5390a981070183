/**
 * Truth table, a count load whose every request fell in the warm-up: `-n 20 --warmup 3s` against the
 * built-in target sends its 20 requests in the first milliseconds, all before the warm-up's end, so not
 * one is measured. The target answered them, so the run is not `failed`, but it read `ok` with
 * "Success rate: 0.00%" and "Requests: 0": `nothing measured` flags it (exit 0; `--strict` exits 6), and
 * a success rate of no request prints `-`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";
import { withBuiltinTarget } from "./truth_table.ts";

const LABEL = "nothing measured: every request fell in the 3s warm-up";

Deno.test("warm-up took every request: attack says nothing measured, exit 0, exit 6 under --strict", async () => {
  await withBuiltinTarget(async (url) => {
    await withTempDir(async (dir) => {
      const load = ["attack", url, "-n", "20", "-c", "2", "--warmup", "3s", "--no-live"];
      const r = await runLoadlab([...load, "--summary", `${dir}/s.md`]);
      assertEquals(r.code, 0, r.stderr + r.stdout);
      assert(r.stdout.startsWith(`Verdict: ${LABEL}\n`), r.stdout);
      assert(/Success rate: +-\n/.test(r.stdout), r.stdout);
      const row = (await Deno.readTextFile(`${dir}/s.md`)).split("\n").find((l) =>
        l.startsWith("| attack |")
      );
      assert(row?.includes(LABEL) && row.endsWith("| – | – | – |"), `summary row: ${row}`);
      const strict = await runLoadlab([...load, "-q", "--strict"]);
      assertEquals(strict.code, 6, strict.stderr);
      assert(strict.stderr.includes(`is flagged: ${LABEL}`), strict.stderr);
    });
  });
});
