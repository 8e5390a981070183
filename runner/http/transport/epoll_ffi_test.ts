/**
 * Unit tests of the epoll binding and transport against loopback listeners in this process: address
 * encoding, bounds checks, connect completion and errors, reads and writes, both address families,
 * and every socket closed. Skipped (ignored) where epoll through FFI is not available.
 */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { AF_INET, AF_INET6, EpollSys, epollUnavailableReason, ipv6Bytes, sockAddrOf } from "./epoll_ffi.ts";
import { EpollLoop, resolveOnce } from "./epoll_transport.ts";

const ignore = epollUnavailableReason() !== null;
const ipv6Loopback = (() => {
  try {
    Deno.listen({ hostname: "::1", port: 0 }).close();
    return true;
  } catch {
    return false;
  }
})();

Deno.test("sockAddrOf: sockaddr_in and sockaddr_in6 bytes, port in network order", () => {
  const v4 = sockAddrOf("127.0.0.1", 8080);
  assertEquals(v4.family, AF_INET);
  assertEquals([...v4.bytes], [AF_INET, 0, 0x1f, 0x90, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
  const v6 = sockAddrOf("::1", 443);
  assertEquals(v6.family, AF_INET6);
  assertEquals(v6.bytes.length, 28);
  assertEquals([...v6.bytes.subarray(0, 4)], [AF_INET6, 0, 0x01, 0xbb]);
  assertEquals([...v6.bytes.subarray(8, 24)], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assertEquals(v6.text, "[::1]:443");
});

Deno.test("ipv6Bytes: compressed forms, an IPv4 tail, a zone; malformed ones throw", () => {
  assertEquals([...ipv6Bytes("fe80::1%eth0")], [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assertEquals([...ipv6Bytes("::ffff:1.2.3.4")].slice(10), [0xff, 0xff, 1, 2, 3, 4]);
  assertEquals([...ipv6Bytes("1:2:3:4:5:6:7:8")].slice(14), [0, 8]);
  for (const bad of ["1::2::3", "1:2:3", "12345::", "g::1", "1:2:3:4:5:6:7:8:9"]) {
    throws(() => ipv6Bytes(bad), RangeError, bad);
  }
  throws(() => sockAddrOf("300.0.0.1", 80), RangeError);
  throws(() => sockAddrOf("127.0.0.1", 70000), RangeError);
});

Deno.test({
  name: "EpollSys: resolve uses the system resolver (localhost from /etc/hosts)",
  ignore,
  fn() {
    const found = new EpollSys().resolve("localhost");
    ok(found.includes("127.0.0.1") || found.includes("0:0:0:0:0:0:0:1"), JSON.stringify(found));
    throws(() => new EpollSys().resolve("no-such-host.invalid"));
  },
});

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
    const loop = new EpollLoop(resolveOnce(new EpollSys(), "127.0.0.1", port));
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
