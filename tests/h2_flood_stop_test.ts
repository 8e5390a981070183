/**
 * `loadlab attack --h2` under a flood of tiny HTTP/2 frames still obeys SIGTERM as a user's or a CI job's
 * timeout sends it: the worker reading the flood gives its event loop turns, so the stop message gets
 * through and the run exits 143 within the graceful stop, not when the server relents. Run as users run
 * it (a child process), against the flood server of tests/fixtures/h2_flood_server.ts sending 1-byte DATA
 * frames on 127.0.0.1, over h2c on both transports and over TLS on the epoll one (the deno transport's TLS
 * reads are bounded the same way; runner/http/h2/flood_test.ts times them).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type H2FloodMode, startH2FloodServer } from "./fixtures/h2_flood_server.ts";
import { epollBlocker } from "../runner/http/transport/choice.ts";
import { EPOLL_TLS_BLOCKER, makeTlsFixtures, type TlsFixtures } from "./tls_fixtures.ts";
import { requireProgram, withTempDir } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
/** Certain on a busy machine: the graceful stop (2 s) and the exit, many times over; it took minutes. */
const EXIT_WITHIN_MS = 15_000;

async function stopUnderFlood(transport: string, mode: H2FloodMode, tls: TlsFixtures | null): Promise<void> {
  const server = startH2FloodServer(
    mode,
    tls === null ? undefined : {
      cert: await Deno.readTextFile(tls.serverCert),
      key: await Deno.readTextFile(tls.serverKey),
    },
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "attack", `${server.origin}/`, "--h2", "-c", "2", "-d", "60s"]
      .concat(["--timeout", "1s", "--transport", transport, "--no-live", "-q"])
      .concat(tls === null ? [] : ["--cacert", tls.ca]),
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let killer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Flooding for a while: the worker is deep in its reads when the signal comes.
    const deadline = Date.now() + 30_000;
    while (server.floodedBytes < 64 << 20 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    ok(server.flooded > 0, "the server flooded no connection");
    const signalledMs = performance.now();
    child.kill("SIGTERM");
    killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const status = await child.status;
    const tookMs = performance.now() - signalledMs;
    assertEquals(status.code, 143, await stderr);
    ok(tookMs < EXIT_WITHIN_MS, `exited ${tookMs.toFixed(0)} ms after SIGTERM`);
  } finally {
    clearTimeout(killer);
    try {
      child.kill("SIGKILL");
    } catch { /* exited */ }
    await stderr.catch(() => "");
    await server.close();
  }
}

for (const transport of ["epoll", "deno"] as const) {
  Deno.test({
    name:
      `attack --h2 under an endless flood of 1-byte DATA frames exits 143 soon after SIGTERM [${transport}]`,
    ignore: transport === "epoll" && epollBlocker(new URL("http://127.0.0.1/")) !== null,
    fn: () => stopUnderFlood(transport, "data", null),
  });
}

Deno.test({
  name:
    "attack --h2 over TLS under an endless flood of 1-byte DATA frames exits 143 soon after SIGTERM [epoll]",
  ignore: EPOLL_TLS_BLOCKER !== null,
  async fn() {
    if (!requireProgram("openssl")) return;
    await withTempDir(async (dir) => stopUnderFlood("epoll", "data", await makeTlsFixtures(dir)));
  },
});
