/**
 * Truth table, every request answered 500 (the built-in target's error handler, `/error/1`, for
 * `attack`; a server answering 500 to everything for `run`). The target answered, so the run is not
 * `failed` and exits 0, but it never reads as a plain `ok`: `server errors 100%` flags it, and
 * `--strict` fails it (exit 6).
 */
import {
  assertAttack,
  assertRun,
  type VerdictClass,
  withBuiltinTarget,
  withStatusServer,
} from "./truth_table.ts";

const serverErrors = (url: string): VerdictClass => ({
  url,
  label: /^server errors 100%$/,
  code: 0,
  strictCode: 6,
  noSamples: false,
});

Deno.test("5xx: attack says server errors 100%, exit 0, exit 6 under --strict", async () => {
  await withBuiltinTarget((url) => assertAttack(serverErrors(`${url}/error/1`)));
});

Deno.test("5xx: run flags it alone and beside a healthy target; --strict exits 6", async () => {
  await withStatusServer(500, (url) => assertRun(serverErrors(url)));
});
