/**
 * Truth table, every request answered 500 (the built-in target's error handler, `/error/1`, for
 * `attack`; a server answering 500 to everything for `run`). The target answered, so the run is not
 * `failed` and exits 0, but it never reads as a plain `ok`: `server errors 100%` flags it, and
 * `--strict` fails it (exit 6).
 */
import { startTarget } from "../../targets/mod.ts";
import { assertAttack, assertRun, type VerdictClass } from "./truth_table.ts";

const serverErrors = (url: string): VerdictClass => ({
  url,
  label: /^server errors 100%$/,
  code: 0,
  strictCode: 6,
  noSamples: false,
});

Deno.test("5xx: attack says server errors 100%, exit 0, exit 6 under --strict", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    await assertAttack(serverErrors(`${target.url}/error/1`));
  } finally {
    await target.stop();
  }
});

Deno.test("5xx: run flags it alone and beside a healthy target; --strict exits 6", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("no", { status: 500 }),
  );
  try {
    await assertRun(serverErrors(`http://127.0.0.1:${server.addr.port}`));
  } finally {
    await server.shutdown();
  }
});
