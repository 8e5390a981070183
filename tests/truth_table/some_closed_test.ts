/**
 * Truth table, a quarter of the requests closed unanswered: a server that answers each connection's
 * first three requests and closes it on the fourth. The target answered most requests, so the run is
 * not `failed` and exits 0, but it never reads as a plain `ok` beside "success 75%": `errors 25%
 * (closed-early 10)` flags it (the unanswered requests have no latency in the percentiles, as lost ones),
 * and `--strict` fails it (exit 6), as 25% of 5xx answers do.
 */
import { closeQuietly } from "../../system/descriptors.ts";
import { assertAttack, assertRun, type VerdictClass } from "./truth_table.ts";

const ANSWER = new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");

/** Serves one connection: answers each request head until the fourth, then closes without a word. */
async function serveThree(conn: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(16 * 1024);
  let text = "";
  let answered = 0;
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      text += new TextDecoder().decode(buf.subarray(0, n));
      for (let end = text.indexOf("\r\n\r\n"); end >= 0; end = text.indexOf("\r\n\r\n")) {
        text = text.slice(end + 4);
        if (answered === 3) return;
        answered++;
        await conn.write(ANSWER);
      }
    }
  } catch {
    /* the client went away */
  } finally {
    closeQuietly(conn);
  }
}

/** Runs `fn` against a listener on 127.0.0.1 that closes each connection at its fourth request. */
async function withFourthClosed(fn: (url: string) => Promise<void>): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving: Promise<void>[] = [];
  const accepting = (async () => {
    for await (const conn of listener) serving.push(serveThree(conn));
  })();
  try {
    await fn(`http://127.0.0.1:${listener.addr.port}/`);
  } finally {
    closeQuietly(listener);
    await accepting.catch(() => {});
    await Promise.all(serving);
  }
}

const someClosed = (url: string): VerdictClass => ({
  url,
  label: /^errors \d+% \((closed-early|reset) \d+(, (closed-early|reset) \d+)?\)$/,
  code: 0,
  strictCode: 6,
  noSamples: false,
});

Deno.test("some closed: attack says errors 25%, exit 0, exit 6 under --strict", async () => {
  await withFourthClosed((url) => assertAttack(someClosed(url)));
});

Deno.test("some closed: run flags it alone and beside a healthy target; --strict exits 6", async () => {
  await withFourthClosed((url) => assertRun(someClosed(url)));
});
