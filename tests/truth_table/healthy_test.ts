/**
 * Truth table, the healthy run: the built-in target answering every request. `ok` everywhere (terminal,
 * report badge, `--summary`, `--junit`), exit 0 in `attack` and in `run`, alone, beside another
 * built-in target and under `--strict`, and measured latency in every cell.
 */
import { assertAttack, assertRun, type VerdictClass, withBuiltinTarget } from "./truth_table.ts";

const healthy = (url: string): VerdictClass => ({
  url,
  label: /^ok$/,
  code: 0,
  strictCode: 0,
  noSamples: false,
});

Deno.test("healthy: attack on the built-in target is ok, exit 0, also under --strict", async () => {
  await withBuiltinTarget((url) => assertAttack(healthy(`${url}/`)));
});

Deno.test("healthy: run is ok and exits 0 alone, beside another built-in target and under --strict", async () => {
  await withBuiltinTarget((url) => assertRun(healthy(url)));
});
