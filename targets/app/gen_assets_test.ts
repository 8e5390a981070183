import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { renderEmbeddedAssets } from "./gen_assets.ts";

Deno.test("assets_embedded.ts matches targets/assets/ (run targets/gen_assets.ts after editing assets)", async () => {
  const here = import.meta.dirname!;
  const expected = await renderEmbeddedAssets(`${here}/assets`);
  const actual = await Deno.readTextFile(`${here}/assets_embedded.ts`);
  assert(expected.includes('"images/photo.png"'));
  assertEquals(actual, expected);
});
