/**
 * Truth table, every connection closed before an answer: a server that accepts and closes at once.
 * Not one response is `failed` whatever the error kind (here the server's close, `closed-early` or
 * `reset`, not a refused connect): exit 4 in `attack` and in `run`, alone or beside a healthy target.
 */
import { closeQuietly } from "../../system/descriptors.ts";
import { assertAttack, assertRun, type VerdictClass } from "./truth_table.ts";

/** Runs `fn` against a listener on 127.0.0.1 that closes every connection it accepts. */
async function withHangUp(fn: (url: string) => Promise<void>): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const conn of listener) closeQuietly(conn);
  })();
  try {
    await fn(`http://127.0.0.1:${listener.addr.port}/`);
  } finally {
    closeQuietly(listener);
    await accepting.catch(() => {});
  }
}

const hangUp = (url: string): VerdictClass => ({
  url,
  label: /^failed: no response \((closed-early|reset) \d+(, (closed-early|reset) \d+)?\)$/,
  code: 4,
  strictCode: 4,
  noSamples: true,
});

Deno.test("hang-up: attack says failed, exit 4 (also under --strict), '-' for every latency cell", async () => {
  await withHangUp((url) => assertAttack(hangUp(url)));
});

Deno.test("hang-up: run exits 4 with the target alone and beside a healthy one", async () => {
  await withHangUp((url) => assertRun(hangUp(url)));
});
