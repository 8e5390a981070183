/**
 * Truth table, every request refused: a closed port on 127.0.0.1. No response at all is `failed`
 * (with its error kind), exit 4 in `attack` and in `run`, alone or beside a healthy target, and no
 * latency statistic is printed as 0.
 */
import { freePort } from "../../system/ports.ts";
import { assertAttack, assertRun, type VerdictClass } from "./truth_table.ts";

const refused = (): VerdictClass => ({
  url: `http://127.0.0.1:${freePort()}/`,
  label: /^failed: no response \(connect \d+\)$/,
  code: 4,
  strictCode: 4,
  noSamples: true,
});

Deno.test("refused: attack says failed, exit 4 (also under --strict), '-' for every latency cell", async () => {
  await assertAttack(refused());
});

Deno.test("refused: run exits 4 with the target alone and beside a healthy one", async () => {
  await assertRun(refused());
});
