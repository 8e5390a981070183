/**
 * Truth table, every request answered 404 (the built-in target has no such path, for `attack`; a
 * server answering 404 to everything for `run`). Answers came back, so the run is not `failed` and
 * exits 0, but the verdict says `no success` instead of a green `ok`, and `--strict` fails it (exit 6).
 */
import {
  assertAttack,
  assertRun,
  type VerdictClass,
  withBuiltinTarget,
  withStatusServer,
} from "./truth_table.ts";

const noSuccess = (url: string): VerdictClass => ({
  url,
  label: /^no success: not one response was 2xx\/3xx \(404 \d+\)$/,
  code: 0,
  strictCode: 6,
  noSamples: false,
});

Deno.test("404 only: attack says no success, exit 0, exit 6 under --strict", async () => {
  await withBuiltinTarget((url) => assertAttack(noSuccess(`${url}/no-such-path`)));
});

Deno.test("404 only: run flags it alone and beside a healthy target; --strict exits 6", async () => {
  await withStatusServer(404, (url) => assertRun(noSuccess(url)));
});
