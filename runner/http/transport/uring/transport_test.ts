/**
 * Unit tests of the io_uring transport against loopback listeners in this process: reads and writes
 * through both contracts, a write bigger than a send slot arriving whole and in order, a flood the
 * reader does not take held to a bound (the rest left in the kernel), read intact, and the receive
 * armed again after it, a crowd closed at once (every request cancelled by its own user_data), a close
 * failing a pending read, the client's socket closed, and the choice's fallbacks. Skipped
 * (ignored) where the kernel does not let us make the ring.
 */
import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { EpollSys } from "../epoll/ffi.ts";
import { sockAddrOf } from "../sock_addr.ts";
import { RECV_BUFFER_BYTES, SEND_SLOT_BYTES, SMALL_SEND_SLOT_BYTES } from "./ffi.ts";
import { uringUnavailableReason } from "./ring.ts";
import { UringLoop } from "./transport.ts";
import { HELD_MAX_BYTES, type UringSocket } from "./socket.ts";
import { chooseTransport, uringBlocker } from "../choice.ts";
import type { InlineConn } from "../transport.ts";

const ignore = uringUnavailableReason() !== null;
const BOUND_MS = 10_000;

/**
 * The socket inodes this process has open. Only inodes, never a count of all descriptors: under
 * `deno test --parallel` other modules share this process and open and close descriptors of their own
 * (the whole-process count, ring included, is checked in a process of its own by
 * tests/transport_fd_leak_test.ts).
 */
function openSocketInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const e of Deno.readDirSync("/proc/self/fd")) {
    try {
      const link = Deno.readLinkSync(`/proc/self/fd/${e.name}`).match(/^socket:\[(\d+)\]$/);
      if (link) inodes.add(link[1]);
    } catch { /* closed while listed */ }
  }
  return inodes;
}

function socketInodeOf(fd: number): string {
  return Deno.readLinkSync(`/proc/self/fd/${fd}`).match(/^socket:\[(\d+)\]$/)![1];
}

/** A listener whose first accepted connection `serve` gets; the loop dialling it. */
async function withServer(serve: (conn: Deno.Conn) => Promise<void>, fn: (loop: UringLoop) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await listener.accept();
    try {
      await serve(conn);
    } catch { /* the client closed first */ }
    try {
      conn.close();
    } catch { /* closed */ }
  })();
  const loop = new UringLoop(sockAddrOf("127.0.0.1", listener.addr.port), new EpollSys(), 1);
  try {
    await fn(loop);
  } finally {
    loop.close();
    listener.close();
    await served;
  }
}

/**
 * Reads through the promise contract until `total` bytes came (or the end); a read still waiting at
 * BOUND_MS is failed by closing the socket, so a stalled receive fails the test instead of hanging it.
 */
async function readAll(conn: { read(b: Uint8Array): Promise<number | null>; close(): void }, total: number) {
  const out = new Uint8Array(total);
  const buf = new Uint8Array(4096);
  let got = 0;
  const timer = setTimeout(() => conn.close(), BOUND_MS);
  try {
    while (got < total) {
      const n = await conn.read(buf);
      if (n === null) break;
      out.set(buf.subarray(0, n), got);
      got += n;
    }
  } finally {
    clearTimeout(timer);
  }
  return out.subarray(0, got);
}

const pattern = (n: number) => Uint8Array.from({ length: n }, (_, k) => (k * 7 + (k >> 8)) & 0xff);

Deno.test({
  name: "io_uring: an echo through the promise contract, a write bigger than a send slot whole and in order",
  ignore,
  async fn() {
    const bytes = pattern(SEND_SLOT_BYTES * 5 + 123);
    let inode = "";
    await withServer(async (conn) => {
      const got = await readAll(conn, bytes.length);
      await conn.write(got);
    }, async (loop) => {
      const sock = await loop.connect(AbortSignal.timeout(BOUND_MS));
      inode = socketInodeOf((sock as UringSocket).fd);
      let sent = 0;
      while (sent < bytes.length) sent += await sock.write(bytes.subarray(sent));
      assertEquals(await readAll(sock, bytes.length), bytes);
      sock.close();
      await rejects(sock.read(new Uint8Array(4)), Deno.errors.BadResource);
      assertEquals(loop.openSockets, 0);
    });
    ok(!openSocketInodes().has(inode), "the client's socket closed");
  },
});

Deno.test({
  name:
    "io_uring: small frames from a small send slot, then a write past it behind one in flight, whole and in order",
  ignore,
  async fn() {
    const small = pattern(SMALL_SEND_SLOT_BYTES - 10);
    const big = pattern(SEND_SLOT_BYTES * 2 + 77).reverse();
    const tail = pattern(40);
    const total = small.length + big.length + tail.length;
    const { promise: received, resolve } = Promise.withResolvers<Uint8Array>();
    await withServer(async (conn) => {
      resolve(await readAll(conn, total));
    }, async (loop) => {
      const sock = await loop.connect(AbortSignal.timeout(BOUND_MS)) as UringSocket;
      assertEquals(sock.writeNow(small), small.length);
      // In flight and not reaped: the big write's first bytes fill what is left of the small slot.
      loop.ring.enter(0, 0);
      let sent = 0;
      while (sent < big.length) sent += await sock.write(big.subarray(sent));
      while (sent < big.length + tail.length) sent += await sock.write(tail.subarray(sent - big.length));
      assertEquals(await received, new Uint8Array([...small, ...big, ...tail]));
      sock.close();
    });
  },
});

/** Reads `conn` to its end (EOF or a reset); false when it had not ended by BOUND_MS. */
async function readsToEnd(conn: Deno.Conn): Promise<boolean> {
  const buf = new Uint8Array(64 * 1024);
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    conn.close();
  }, BOUND_MS);
  try {
    while (await conn.read(buf) !== null) { /* the client's bytes */ }
  } catch {
    /* reset by the peer, or closed by the timer */
  } finally {
    clearTimeout(timer);
  }
  return !late;
}

Deno.test({
  name:
    "io_uring: a crowd closed at once, receives armed and some sends waiting for room, reaches every peer's end",
  ignore,
  async fn() {
    const crowd = 200;
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const loop = new UringLoop(sockAddrOf("127.0.0.1", listener.addr.port), new EpollSys(), 1);
    const accepted: Deno.Conn[] = [];
    try {
      const accepting = (async () => {
        while (accepted.length < crowd) accepted.push(await listener.accept());
      })();
      const socks: UringSocket[] = [];
      while (socks.length < crowd) {
        socks.push(await loop.connect(AbortSignal.timeout(BOUND_MS)) as UringSocket);
      }
      await accepting;
      // A tenth write more than both sockets' buffers hold, the peers not reading: their sends wait for room.
      const big = pattern(8 * 1024 * 1024);
      const writes = socks.slice(0, crowd / 10).map(async (s) => {
        for (let sent = 0; sent < big.length;) {
          sent += await s.write(big.subarray(sent)).catch(() => big.length);
        }
      });
      const reads = socks.map((s) => s.read(new Uint8Array(16)).catch(() => null));
      await new Promise((r) => setTimeout(r, 100));
      ok(socks.slice(0, crowd / 10).every((s) => s.inFlight), "the big sends are in flight");
      for (const s of socks) s.close();
      // Every request of every socket cancelled: the ring lets go of each, and each peer sees its end.
      const ended = await Promise.all(accepted.map(readsToEnd));
      assertEquals(ended.filter((e) => !e).length, 0);
      await Promise.all([...writes, ...reads]);
      assertEquals(loop.openSockets, 0);
    } finally {
      loop.close();
      listener.close();
      for (const c of accepted) {
        try {
          c.close();
        } catch { /* ended */ }
      }
    }
  },
});

Deno.test({
  name: "io_uring: what writeNow took goes out before the close, behind a send in flight too (as on epoll)",
  ignore,
  async fn() {
    const first = pattern(100);
    const second = Uint8Array.from([0x88, 0x02, 0x03, 0xe9]);
    const { promise: received, resolve } = Promise.withResolvers<Uint8Array>();
    await withServer(async (conn) => {
      resolve(await readAll(conn, first.length + second.length));
    }, async (loop) => {
      const sock = await loop.connect(AbortSignal.timeout(BOUND_MS)) as UringSocket;
      assertEquals(sock.writeNow(first), first.length);
      // The first send handed to the kernel, its completion not reaped: still in flight for the socket.
      loop.ring.enter(0, 0);
      assertEquals(sock.writeNow(second), second.length);
      sock.close();
      // The server reads to the client's FIN (readAll is bounded) before its listener closes.
      assertEquals([...await received], [...first, ...second]);
    });
  },
});

Deno.test({
  name: "io_uring: a flood nobody reads is held to a bound, then read whole and in order",
  ignore,
  async fn() {
    const total = HELD_MAX_BYTES * 8;
    const bytes = pattern(total);
    await withServer(async (conn) => {
      for (let at = 0; at < total; at += 65536) await conn.write(bytes.subarray(at, at + 65536));
      // The client's bytes until it closes; an "m" is answered with "done".
      const buf = new Uint8Array(64);
      for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
        if (buf.subarray(0, n).includes(0x6d)) await conn.write(new TextEncoder().encode("done"));
      }
    }, async (loop) => {
      const conn = await loop.connect(AbortSignal.timeout(BOUND_MS));
      const sock = conn as UringSocket;
      // Keep the pump running (a write in flight counts) while no read is armed, for a while.
      const started = performance.now();
      let peak = 0;
      while (performance.now() - started < 300) {
        await sock.write(new Uint8Array(1));
        await new Promise((r) => setTimeout(r, 5));
        peak = Math.max(peak, sock.heldBytes);
      }
      ok(peak > 0, "bytes arrived");
      // The bound, plus what one round's multishot retries (32 buffers) brought before the cancel landed.
      ok(peak <= HELD_MAX_BYTES + 32 * RECV_BUFFER_BYTES, `held ${peak} bytes, bounded`);
      assertEquals(await readAll(sock, total), bytes);
      // The receive cancelled at the bound was armed again: what comes next arrives.
      await sock.write(new TextEncoder().encode("m"));
      assertEquals(new TextDecoder().decode(await readAll(sock, 4)), "done");
      sock.close();
    });
  },
});

Deno.test({
  name: "io_uring: the inline contract reads what came; a close fails the armed read",
  ignore,
  async fn() {
    await withServer(async (conn) => {
      await conn.write(new TextEncoder().encode("hello"));
      await conn.read(new Uint8Array(16)); // until the client closes
    }, async (loop) => {
      const sock = await loop.connect(AbortSignal.timeout(BOUND_MS)) as InlineConn;
      const buf = new Uint8Array(64);
      const first = await new Promise<number | null>((resolve, reject) => {
        sock.armRead(buf, { onRead: (n) => (resolve(n), true), onReadError: (e) => (reject(e), true) });
      });
      assertEquals(new TextDecoder().decode(buf.subarray(0, first ?? 0)), "hello");
      const failed = new Promise<unknown>((resolve) => {
        sock.armRead(buf, { onRead: (n) => (resolve(n), true), onReadError: (e) => (resolve(e), true) });
      });
      sock.close();
      ok((await failed) instanceof Deno.errors.BadResource);
    });
  },
});

Deno.test({
  name: "io_uring: the peer's close ends the stream; a refused connect fails with its reason",
  ignore,
  async fn() {
    await withServer(async (conn) => {
      await conn.write(new TextEncoder().encode("bye"));
    }, async (loop) => {
      const sock = await loop.connect(AbortSignal.timeout(BOUND_MS));
      assertEquals(new TextDecoder().decode(await readAll(sock, 100)), "bye");
      assertEquals(await sock.read(new Uint8Array(4)), null);
      sock.close();
    });
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = closed.addr.port;
    closed.close();
    const loop = new UringLoop(sockAddrOf("127.0.0.1", port), new EpollSys(), 1);
    try {
      await rejects(loop.connect(AbortSignal.timeout(BOUND_MS)), Deno.errors.ConnectionRefused);
    } finally {
      loop.close();
    }
  },
});

Deno.test("io_uring: chosen for plain-TCP closed models only; elsewhere epoll, the reason recorded", () => {
  const http = new URL("http://127.0.0.1:9/");
  ok(uringBlocker(new URL("https://127.0.0.1/"), { closedModel: true })!.includes("plain TCP only"));
  ok(uringBlocker(http, {})!.includes("closed models only"));
  const open = chooseTransport(http, "io_uring", {});
  try {
    ok(open.kind !== "io_uring" && open.fallbackReason!.includes("closed models only"), open.fallbackReason!);
  } finally {
    open.close();
  }
  const closed = chooseTransport(http, "io_uring", { closedModel: true });
  try {
    const here = uringBlocker(http, { closedModel: true });
    assertEquals([closed.kind, closed.fallbackReason], here === null ? ["io_uring", null] : ["epoll", here]);
  } finally {
    closed.close();
  }
});
