/**
 * Truth table, every request answered 404 (the built-in target has no such path). Answers came back,
 * so the run is not `failed` and exits 0, but the verdict says `no success` instead of a green `ok`,
 * and `--strict` fails it (exit 6).
 */
import { startTarget } from "../../targets/mod.ts";
import { assertAttack, assertRun, type VerdictClass } from "./truth_table.ts";

const noSuccess = (url: string): VerdictClass => ({
  url,
  label: /^no success: not one response was 2xx\/3xx$/,
  code: 0,
  strictCode: 6,
  noSamples: false,
});

Deno.test("404 only: attack says no success, exit 0, exit 6 under --strict", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    await assertAttack(noSuccess(`${target.url}/no-such-path`));
  } finally {
    await target.stop();
  }
});

Deno.test("404 only: run flags it alone and beside a healthy target; --strict exits 6", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("none", { status: 404 }),
  );
  try {
    await assertRun(noSuccess(`http://127.0.0.1:${server.addr.port}`));
  } finally {
    await server.shutdown();
  }
});
