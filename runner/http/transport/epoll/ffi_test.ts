/**
 * Unit tests of the epoll binding and transport against loopback listeners in this process: bounds
 * checks, connect completion and errors, reads and writes, both address families, and every socket
 * closed. Skipped (ignored) where epoll through FFI is not available.
 */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { EpollSys, epollUnavailableReason } from "./ffi.ts";
import { EpollLoop } from "./transport.ts";
import { resolveOnce } from "../host_resolver.ts";
import { sockAddrOf } from "../sock_addr.ts";

const ignore = epollUnavailableReason() !== null;
const ipv6Loopback = (() => {
  try {
    Deno.listen({ hostname: "::1", port: 0 }).close();
    return true;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "EpollSys: bounds are checked before the call",
  ignore,
  fn() {
    const sys = new EpollSys();
    const buf = new Uint8Array(8);
    throws(() => sys.read(0, buf, 9), RangeError);
    throws(() => sys.read(0, buf, -1), RangeError);
    assertEquals(sys.read(-1, buf) < 0, true, "a bad fd is -errno, not a throw");
  },
});

/** An echo server that answers each read with the same bytes. */
function echoServer(hostname: string) {
  const listener = Deno.listen({ hostname, port: 0 });
  const served = (async () => {
    for await (const conn of listener) {
      (async () => {
        const buf = new Uint8Array(1024);
        try {
          for (let n; (n = await conn.read(buf)) !== null;) await conn.write(buf.subarray(0, n));
        } catch { /* closed */ }
        conn.close();
      })();
    }
  })();
  return {
    port: listener.addr.port,
    async close() {
      listener.close();
      await served.catch(() => {});
    },
  };
}

async function roundTrip(hostname: string) {
  const server = echoServer(hostname);
  const loop = new EpollLoop(sockAddrOf(hostname, server.port));
  try {
    const sock = await loop.connect(new AbortController().signal);
    assertEquals(await sock.write(new TextEncoder().encode("ping")), 4);
    const buf = new Uint8Array(64);
    const n = await sock.read(buf);
    assertEquals(new TextDecoder().decode(buf.subarray(0, n ?? 0)), "ping");
    const pending = sock.read(buf);
    sock.close();
    await pending.then(() => ok(false, "a read pending at close must fail"), () => {});
    assertEquals(loop.openSockets, 0);
  } finally {
    loop.close();
    await server.close();
  }
}

Deno.test({
  name: "EpollLoop: connect, write, read, close over IPv4",
  ignore,
  fn: () => roundTrip("127.0.0.1"),
});
Deno.test({
  name: "EpollLoop: connect, write, read, close over IPv6 (sockaddr_in6)",
  ignore: ignore || !ipv6Loopback,
  fn: () => roundTrip("::1"),
});

Deno.test({
  name: "EpollLoop: a refused connect fails with ConnectionRefused and leaves no socket",
  ignore,
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    listener.close();
    const loop = new EpollLoop(resolveOnce("127.0.0.1", port));
    try {
      const err = await loop.connect(new AbortController().signal).then(() => null, (e) => e);
      ok(err instanceof Deno.errors.ConnectionRefused, String(err));
      ok(/os error 111/.test(String(err)), String(err));
      assertEquals(loop.openSockets, 0);
    } finally {
      loop.close();
    }
  },
});

Deno.test({
  name: "EpollLoop: a peer's close reads as end of stream (null)",
  ignore,
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const accepted = listener.accept().then((c) => c.close());
    const loop = new EpollLoop(sockAddrOf("127.0.0.1", listener.addr.port));
    try {
      const sock = await loop.connect(new AbortController().signal);
      await accepted;
      assertEquals(await sock.read(new Uint8Array(16)), null);
      sock.close();
    } finally {
      loop.close();
      listener.close();
    }
  },
});
