/**
 * The fd-leak check of every transport, over TCP and over TLS (epoll: its `SSL`s freed with their sockets;
 * io_uring: its ring and sockets, plain TCP only, its open models falling back to epoll): a generator process
 * runs every kind of run (every model, Connection: close, timeouts, a refused connect, a stop request) and
 * its /proc/self/fd count must be the same after them as before. In its own process, since the parallel suite
 * shares this one.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { epollBlocker } from "../runner/http/transport/choice.ts";
import { uringUnavailableReason } from "../runner/http/transport/uring/ring.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Probes at once: each is a process of its own, mostly waiting on its runs' timeouts. */
const pool = testPool(4);

/** Plain HTTP, or HTTPS with a throwaway certificate (its CA then written to `caFile`). */
function startTarget(pem: { cert: string; key: string } | Record<never, never> = {}) {
  const server = Deno.serve({ ...pem, hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/hang") await new Promise((r) => setTimeout(r, 600));
    if (path === "/close") return new Response("bye", { headers: { connection: "close" } });
    return new Response("hello");
  });
  const scheme = "cert" in pem ? "https" : "http";
  return { url: `${scheme}://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const VARIANTS = [
  { transport: "deno" },
  { transport: "epoll" },
  { transport: "io_uring" },
  { transport: "deno", tls: "ca" },
  { transport: "deno", tls: "insecure" },
  { transport: "epoll", tls: "ca" },
  { transport: "epoll", tls: "insecure" },
] as const;

for (const { transport, ...variant } of VARIANTS) {
  const tls = "tls" in variant ? variant.tls : undefined;
  pool.test(
    `fd leak [${transport}${tls ? `+tls-${tls}` : ""}]: every socket closed on every exit path`,
    async () => {
      const pair = tls ? await selfSignedPair() : null;
      const target = startTarget(pair ? { cert: pair.certPem, key: pair.keyPem } : {});
      const caFile = pair ? await Deno.makeTempFile({ suffix: ".pem" }) : null;
      if (pair && caFile) await Deno.writeTextFile(caFile, pair.caPem);
      const tlsArg = tls === "ca" ? [caFile!] : tls === "insecure" ? ["insecure"] : [];
      try {
        const probe = new URL("./fixtures/fd_leak_probe.ts", import.meta.url).pathname;
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", probe, target.url, transport, ...tlsArg],
          stdout: "piped",
          stderr: "inherit",
        }).output();
        assertEquals(out.code, 0);
        const { before, after, open } = JSON.parse(
          new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!,
        );
        assertEquals(after, before, `descriptors open after the runs: ${open.join(", ")}`);
      } finally {
        await target.close();
        if (caFile) await Deno.remove(caFile);
      }
    },
    {
      ignore: Deno.build.os !== "linux" ||
        (transport === "epoll" &&
          epollBlocker(new URL(tls ? "https://127.0.0.1/" : "http://127.0.0.1/")) !== null) ||
        (transport === "io_uring" && uringUnavailableReason() !== null),
    },
  );
}
