/**
 * A socket of the epoll and io_uring transports closed with bytes it has not read (a ping, the rest of a
 * response) ends with a FIN, not a reset: the server's next read sees the end of the stream, and so
 * reads what we sent last (a WebSocket close frame) before it. Without the drain the kernel resets such a
 * socket (RFC 1122 4.2.2.13) and the server's read fails (the epoll row fails so). An io_uring close first
 * runs the ring's deferred work, whose armed receive takes what had arrived into the ring's buffers, so
 * there the drain finds what is left past that (more than the socket buffers hold here): its row guards
 * the same end.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { EpollSys } from "./epoll/ffi.ts";
import { sockAddrOf } from "./sock_addr.ts";
import { EpollLoop } from "./epoll/transport.ts";
import { UringLoop } from "./uring/transport.ts";
import { epollBlocker, uringBlocker } from "./choice.ts";
import type { InlineConn } from "./transport.ts";

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const BOUND_MS = 5000;

/** What the server's read after our close saw: "end", or the error's name. */
async function serverSees(conn: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(64 * 1024);
  const timer = setTimeout(() => conn.close(), BOUND_MS);
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) return "end";
    }
  } catch (err) {
    return (err as Error).name;
  } finally {
    clearTimeout(timer);
  }
}

/** Bytes the server sends and the client never reads (well within the socket buffers). */
const UNREAD_BYTES = 16 * 1024;

for (const kind of ["epoll", "io_uring"] as const) {
  const blocker = kind === "epoll" ? EPOLL_BLOCKER : URING_BLOCKER;
  Deno.test({
    name:
      `${kind}: a socket closed with bytes unread ends with a FIN, and the server reads what we sent last`,
    ignore: blocker !== null,
    async fn() {
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const addr = sockAddrOf("127.0.0.1", listener.addr.port);
      const sys = new EpollSys();
      const loop = kind === "epoll" ? new EpollLoop(addr, sys) : new UringLoop(addr, sys, 1);
      try {
        const accepted = listener.accept();
        const conn = await loop.connect(AbortSignal.timeout(BOUND_MS)) as InlineConn;
        const server = await accepted;
        // The server's bytes arrive and wait unread in our kernel (nothing reads them: no read is armed,
        // so neither pump takes them), then we write our last word and close.
        const sent = new Uint8Array(UNREAD_BYTES);
        for (let at = 0; at < sent.length;) at += await server.write(sent.subarray(at));
        await new Promise((r) => setTimeout(r, 100));
        await conn.write(new TextEncoder().encode("bye"));
        conn.close();
        const head = new Uint8Array(3);
        let got = 0;
        while (got < 3) got += (await server.read(head.subarray(got))) ?? 3;
        assertEquals(new TextDecoder().decode(head), "bye");
        const seen = await serverSees(server);
        server.close();
        ok(seen === "end", `the server's read after our close: ${seen}`);
      } finally {
        loop.close();
        listener.close();
      }
    },
  });
}
