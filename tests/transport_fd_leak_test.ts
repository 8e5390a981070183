/**
 * The fd-leak check of both transports: a generator process runs every kind of run (every model,
 * Connection: close, timeouts, a refused connect, a stop request) and its /proc/self/fd count must be
 * the same after them as before. In its own process, since the parallel suite shares this one.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { epollUnavailableReason } from "../runner/http/epoll_ffi.ts";

function startTarget() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/hang") await new Promise((r) => setTimeout(r, 600));
    if (path === "/close") return new Response("bye", { headers: { connection: "close" } });
    return new Response("hello");
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

for (const transport of ["deno", "epoll"] as const) {
  Deno.test({
    name: `fd leak [${transport}]: every socket closed on every exit path`,
    ignore: Deno.build.os !== "linux" || (transport === "epoll" && epollUnavailableReason() !== null),
    async fn() {
      const target = startTarget();
      try {
        const probe = new URL("./fixtures/fd_leak_probe.ts", import.meta.url).pathname;
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", probe, target.url, transport],
          stdout: "piped",
          stderr: "inherit",
        }).output();
        assertEquals(out.code, 0);
        const { before, after } = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
        assertEquals(after, before, "descriptors open after the runs");
      } finally {
        await target.close();
      }
    },
  });
}
