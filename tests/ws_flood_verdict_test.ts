/**
 * `loadlab attack ws://` against a server that floods messages of its own and never answers, under the
 * default echo rule, on both transports: every send is "answered" by an unrelated message, so the run is
 * flagged `flooded` in results.json's verdict and on the terminal, which says `--ws-match` is probably
 * wrong, and `--strict` exits 6. A raw server on 127.0.0.1, runs of 1.5 s; no speed asserted.
 */
import { writeAll } from "../system/write_all.ts";
import { ok } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { answer101, readUpgrade } from "./fixtures/ws_upgrade.ts";
import { epollBlocker } from "../runner/http/transport/choice.ts";

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
/** 21,845 text messages of "x" (whole frames), written without end. */
const FLOOD = Uint8Array.from({ length: 3 * 21_845 }, (_, i) => [0x81, 0x01, 0x78][i % 3]);

async function serve(conn: Deno.Conn): Promise<void> {
  try {
    const key = await readUpgrade(conn);
    if (key === null) return;
    await writeAll(conn, answer101(key));
    while (true) await writeAll(conn, FLOOD);
  } catch {
    /* the client went */
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

async function withFlood(fn: (url: string) => Promise<void>): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Promise<void>[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) conns.push(serve(conn));
    } catch { /* closed */ }
  })();
  try {
    await fn(`ws://127.0.0.1:${listener.addr.port}/ws`);
  } finally {
    listener.close();
    await accepting;
    await Promise.all(conns);
  }
}

for (const transport of ["deno", "epoll"] as const) {
  Deno.test({
    name:
      `a flood taken for answers under the echo rule is flagged, the terminal names --ws-match [${transport}]`,
    ignore: transport === "epoll" && EPOLL_BLOCKER !== null,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      await withFlood((url) =>
        withTempDir(async (dir) => {
          const out = `${dir}/results.json`;
          const args = ["attack", url, "-c", "1", "-d", "1500ms", "--transport", transport, "-o", out];
          const r = await runLoadlab([...args, "--strict"]);
          const terminal = r.stdout + r.stderr;
          ok(r.code === 6, `exit ${r.code}: ${terminal}`);
          ok(terminal.includes("--ws-match is probably wrong"), terminal);
          const [run] = JSON.parse(await Deno.readTextFile(out)).runs;
          ok(run.requests > 0 && run.ws.unsolicited >= 100 * run.requests, JSON.stringify(run.ws));
        })
      );
    },
  });
}
