import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { embeddedAssets } from "./assets_embedded.ts";
import { isTextAsset, listAssetFiles, renderBinaryAssets } from "./gen_assets.ts";

const ASSETS_DIR = `${import.meta.dirname!}/assets`;

Deno.test("generated/binary_assets.ts matches targets/app/assets/ (run targets/app/gen_assets.ts after editing images)", async () => {
  const expected = await renderBinaryAssets(ASSETS_DIR);
  const actual = await Deno.readTextFile(`${import.meta.dirname!}/generated/binary_assets.ts`);
  assert(expected.includes('"images/photo.png"'));
  assert(expected.split("\n").every((line) => line.length <= 110), "lines stay short enough to diff");
  assertEquals(actual, expected);
});

Deno.test("every file under targets/app/assets/ is embedded with its exact bytes (text files: assets_embedded.ts)", async () => {
  const files = await listAssetFiles(ASSETS_DIR);
  const embedded = embeddedAssets();
  assertEquals([...embedded.keys()].sort(), files);
  assert(files.some(isTextAsset) && files.some((rel) => !isTextAsset(rel)), "both kinds are covered");
  for (const rel of files) {
    assertEquals(embedded.get(rel), await Deno.readFile(`${ASSETS_DIR}/${rel}`), rel);
  }
});
