/**
 * The io_uring wait and what a refused one does: a timed wait on an idle ring times out (ETIME), tens
 * of thousands of times in a row, never refused (its last argument was once written only half, from
 * some JIT state on, and the kernel refused every wait with EINVAL while the pump turned in vain); and
 * a ring that keeps refusing fails its sockets with the reason, counted by the run, instead of a loop
 * that turns without a message. Skipped (ignored) where the kernel does not let us make the ring.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { EpollSys } from "../epoll/ffi.ts";
import { sockAddrOf } from "../sock_addr.ts";
import { ETIME } from "./ffi.ts";
import { UringRing, uringUnavailableReason } from "./ring.ts";
import { UringLoop } from "./transport.ts";

const ignore = uringUnavailableReason() !== null;

/** Deep frames that leave non-zero words on the stack, as the calls between two waits would. */
function dirtyStack(depth: number): number {
  const words = [depth * 0x7fffffff, -1, 0xdeadbeef];
  return depth > 0 ? dirtyStack(depth - 1) + words[0] : words.length;
}

Deno.test({
  name: "io_uring: a timed wait on an idle ring times out, every time, through the JIT's tiers",
  ignore,
  fn() {
    const ring = new UringRing(8, 8);
    const results = new Map<number, number>();
    try {
      for (let round = 0; round < 20; round++) {
        for (let k = 0; k < 2000; k++) {
          const rc = ring.enter(1, 0.001);
          results.set(rc, (results.get(rc) ?? 0) + 1);
        }
        dirtyStack(50);
      }
    } finally {
      ring.close();
    }
    ok(!results.has(-22), `never refused (EINVAL): ${JSON.stringify([...results])}`);
    // An errno read after the call can be a stale one now and then; the waits are timeouts.
    ok((results.get(-ETIME) ?? 0) >= 39_900, JSON.stringify([...results]));
  },
});

Deno.test({
  name: "io_uring: a ring that keeps refusing to wait fails its sockets with the reason, and the loop ends",
  ignore,
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const accepted = listener.accept();
    const loop = new UringLoop(sockAddrOf("127.0.0.1", listener.addr.port), new EpollSys(), 1);
    try {
      const sock = await loop.connect(AbortSignal.timeout(10_000));
      const peer = await accepted;
      // The kernel's answer forced for this loop only: every wait refused, as the half-written argument was.
      loop.ring.enter = () => -22;
      const started = performance.now();
      const read = sock.read(new Uint8Array(16)).then(() => "read", (err: Error) => err.message);
      const outcome = await Promise.race([
        read,
        new Promise((r) => setTimeout(() => r("still waiting"), 10_000)),
      ]);
      assertEquals(outcome, "socket closed: io_uring_enter failed (errno 22)");
      assertEquals(loop.failure, "io_uring_enter failed (errno 22)");
      assertEquals(loop.openSockets, 0);
      ok(performance.now() - started < 10_000);
      peer.close();
    } finally {
      loop.close();
      listener.close();
    }
  },
});
