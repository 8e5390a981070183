/**
 * A closed epoll loop's idle wait that the thread pool starts late must not take the events of the
 * loop opened next. The idle wait (`nonblocking` FFI) names its set by number; a run's loop is opened
 * right after the generator's warm-up closed its own, and got the same number. On a busy machine a
 * pool thread started the warm-up's last wait hundreds of ms late, on the run's set: it took the
 * run's connect and response events (edge-triggered, never delivered again) and dropped them, so
 * requests at the start of a run were lost until their timeout. The test makes the late start certain
 * by filling this isolate's blocking pool (32 threads) with reads of an empty pipe first, which return
 * only when the test writes to it: each step waits for the event it needs (the idle wait handed over,
 * the pool released), never for a sleep to have ended, so a busy machine cannot reorder them.
 * Whether loop A's set is closed is read from the loop's own close calls, not from /proc/self/fd:
 * `--parallel` runs other test modules in this process, and one of them can take a closed number
 * at once. Skipped without epoll.
 */
import { ok } from "node:assert/strict";
import { EpollSys, epollUnavailableReason } from "./ffi.ts";
import { sockAddrOf } from "../sock_addr.ts";
import { EpollLoop } from "./transport.ts";

const ignore = epollUnavailableReason() !== null;
const RESPONSE = new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
const REQUEST = new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\n\r\n");
/**
 * More blocked reads than the pool has threads (Deno caps it at 32), so the loop's idle wait queues behind.
 */
const POOL_BLOCKERS = 64;
/** Bounds on waits for something that happens at once on an idle machine: they only end a hung test. */
const HANG_MS = 10_000;

/**
 * This isolate's blocking thread pool held by `POOL_BLOCKERS` reads of an empty pipe (`nonblocking`
 * FFI, the pool the idle wait runs on) until `release()` writes one byte for each.
 */
function holdPool() {
  const lib = Deno.dlopen("libc.so.6", {
    pipe: { parameters: ["buffer"], result: "i32" },
    read: { parameters: ["i32", "buffer", "usize"], result: "isize", nonblocking: true },
    write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
    close: { parameters: ["i32"], result: "i32" },
  });
  const fds = new Int32Array(2);
  if (lib.symbols.pipe(fds) !== 0) throw new Error("pipe() failed");
  const [readFd, writeFd] = fds;
  const sink = new Uint8Array(POOL_BLOCKERS);
  const reads = Array.from(
    { length: POOL_BLOCKERS },
    (_, k) => lib.symbols.read(readFd, sink.subarray(k), 1n),
  );
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      lib.symbols.write(writeFd, new Uint8Array(POOL_BLOCKERS), BigInt(POOL_BLOCKERS));
      await Promise.all(reads);
      lib.symbols.close(readFd);
      lib.symbols.close(writeFd);
      lib.close();
    },
  };
}

/** Listeners in this isolate: one answers each read with a response, one accepts and stays silent. */
function listeners() {
  const answering = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const serve = async (listener: Deno.Listener, answer: boolean) => {
    for await (const conn of listener) {
      conns.push(conn);
      if (!answer) continue;
      (async () => {
        const buf = new Uint8Array(1024);
        while ((await conn.read(buf)) !== null) await conn.write(RESPONSE);
      })().catch(() => {});
    }
  };
  const served = [serve(answering, true), serve(silent, false)];
  return {
    answering: (answering.addr as Deno.NetAddr).port,
    silent: (silent.addr as Deno.NetAddr).port,
    async close() {
      answering.close();
      silent.close();
      for (const c of conns) c.close();
      await Promise.allSettled(served);
    },
  };
}

/** The syscalls of a loop, with every descriptor it closed recorded. */
class ClosingSys extends EpollSys {
  readonly closed = new Set<number>();
  override close(fd: number): void {
    this.closed.add(fd);
    super.close(fd);
  }
}

/** Numbers of this process's open epoll sets. */
function epollFds(): Set<number> {
  const found = new Set<number>();
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (Deno.readLinkSync(`/proc/self/fd/${entry.name}`).includes("eventpoll")) {
        found.add(Number(entry.name));
      }
    } catch { /* closed meanwhile */ }
  }
  return found;
}

async function until(test: () => boolean, limitMs: number): Promise<boolean> {
  const endMs = performance.now() + limitMs;
  while (!test() && performance.now() < endMs) await new Promise((r) => setTimeout(r, 1));
  return test();
}

Deno.test({
  name: "EpollLoop: a closed loop's late idle wait keeps its number and takes no event of the next loop",
  ignore,
  async fn() {
    const net = listeners();
    const signal = new AbortController().signal;
    let pool: ReturnType<typeof holdPool> | null = null;
    let loopB: EpollLoop | null = null;
    try {
      // Loop A connects while the pool is free, then waits for a response that never comes: with the
      // pool held, its pump's idle wait is queued and cannot start until the pool is released. Its epoll
      // set's number comes from the loop itself: a diff of /proc/self/fd missed it when a set of an earlier
      // test closed meanwhile and the kernel gave loop A its number.
      const sysA = new ClosingSys();
      const loopA = new EpollLoop(sockAddrOf("127.0.0.1", net.silent), sysA);
      const epfdA = loopA.epollFd;
      const sockA = await loopA.connect(signal);
      ok(await until(() => !sysA.idleWaitPending, HANG_MS), "loop A's connect left an idle wait behind");
      pool = holdPool();
      const readA = sockA.read(new Uint8Array(64)).catch(() => null);
      ok(await until(() => sysA.idleWaitPending, HANG_MS), "loop A never went to its idle wait");
      // The premise: a started idle wait returns within 5 ms; this one has not, so it is queued.
      await new Promise((r) => setTimeout(r, 50));
      ok(sysA.idleWaitPending, `loop A's idle wait ran: the pool has more than ${POOL_BLOCKERS} threads`);
      loopA.close();
      await readA;
      ok(!sysA.closed.has(epfdA), "loop A's epoll set was closed while its idle wait was still queued");
      ok(epollFds().has(epfdA), "loop A's epoll set number is not open while its idle wait is queued");

      // Loop B opens next (before the fix: with A's number); then A's idle wait starts, late, and B
      // does one exchange.
      loopB = new EpollLoop(sockAddrOf("127.0.0.1", net.answering), new EpollSys());
      ok(
        loopB.epollFd !== epfdA,
        `loop B got the number of loop A's set (${epfdA}) while A's idle wait was queued`,
      );
      await pool.release();
      const sockB = await loopB.connect(signal);
      await sockB.write(REQUEST);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answered = await Promise.race([
        sockB.read(new Uint8Array(256)).then((n) => n !== null && n > 0),
        new Promise<boolean>((r) => timer = setTimeout(() => r(false), HANG_MS)),
      ]);
      clearTimeout(timer);
      ok(answered, "loop B's response never came: its event went to loop A's late idle wait");
      ok(await until(() => !sysA.idleWaitPending, HANG_MS), "loop A's idle wait never returned");
      ok(sysA.closed.has(epfdA), "loop A's epoll set stayed open after its idle wait returned");
    } finally {
      loopB?.close();
      await pool?.release();
      await net.close();
    }
  },
});
