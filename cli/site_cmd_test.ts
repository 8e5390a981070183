import assert from "node:assert/strict";
import { join } from "node:path";
import { writeResultsFile } from "../results/io.ts";
import { makeSingleAttack } from "../tests/fixtures/make_results.ts";
import { findExperiments, runSiteCommand } from "./site_cmd.ts";

Deno.test("findExperiments: every results.json below (symlinks read through), ids from folders, bad files skipped", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab_site_" });
  try {
    for (const folder of ["", "demo", "a b/c#1", ".hidden"]) {
      await Deno.mkdir(join(dir, folder), { recursive: true });
      await writeResultsFile(join(dir, folder, "results.json"), makeSingleAttack());
    }
    await Deno.mkdir(join(dir, "broken"));
    await Deno.writeTextFile(join(dir, "broken", "results.json"), "{");
    for (const [folder, to] of [["linked", join(dir, "demo", "results.json")], ["zero", "/dev/zero"]]) {
      await Deno.mkdir(join(dir, folder));
      await Deno.symlink(to, join(dir, folder, "results.json"));
    }
    const ids = (await findExperiments(dir)).map((e) => e.id).sort();
    assert.equal(ids.length, 4);
    assert.ok(ids.includes("linked"), ids.join());
    assert.ok(ids.includes("demo") && ids.includes("a_b_c_1"), ids.join());
    for (const id of ids) assert.match(id, /^[A-Za-z0-9._-]+$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runSiteCommand: a missing folder or two folders are bad input (2)", async () => {
  assert.equal(await runSiteCommand(["/nonexistent/loadlab-site"]), 2);
  assert.equal(await runSiteCommand(["a", "b"]), 2);
  assert.equal(await runSiteCommand(["--port", "99999"]), 2);
});
