/**
 * A closed epoll loop's idle wait that the thread pool starts late must not take the events of the
 * loop opened next. The idle wait (`nonblocking` FFI) names its set by number; a run's loop is opened
 * right after the generator's warm-up closed its own, and got the same number. On a busy machine a
 * pool thread started the warm-up's last wait hundreds of ms late, on the run's set: it took the
 * run's connect and response events (edge-triggered, never delivered again) and dropped them, so
 * requests at the start of a run were lost until their timeout. The test makes the late start certain
 * by filling this isolate's blocking pool (32 threads) with sleeps first. Skipped without epoll.
 */
import { ok } from "node:assert/strict";
import { EpollSys, epollUnavailableReason, sockAddrOf } from "./epoll_ffi.ts";
import { EpollLoop } from "./epoll_transport.ts";

const ignore = epollUnavailableReason() !== null;
const RESPONSE = new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
const REQUEST = new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\n\r\n");
/** More sleeps than the pool has threads (Deno caps it at 32), so the loop's idle wait queues behind. */
const POOL_SLEEPS = 64;
const SLEEP_US = 250_000;

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
    const lib = Deno.dlopen("libc.so.6", {
      usleep: { parameters: ["u32"], result: "i32", nonblocking: true },
    });
    const sleeps = Array.from({ length: POOL_SLEEPS }, () => lib.symbols.usleep(SLEEP_US));
    const signal = new AbortController().signal;
    let loopB: EpollLoop | null = null;
    try {
      // Loop A waits for a response that never comes: its pump hands an idle wait to the full pool.
      // Its number from the loop itself: a diff of /proc/self/fd missed it when a set of an earlier test
      // closed meanwhile and the kernel gave loop A its number.
      const sysA = new EpollSys();
      const loopA = new EpollLoop(sockAddrOf("127.0.0.1", net.silent), sysA);
      const epfdA = loopA.epollFd;
      const sockA = await loopA.connect(signal);
      const readA = sockA.read(new Uint8Array(64)).catch(() => null);
      ok(await until(() => sysA.idleWaitPending, 2_000), "loop A never went to its idle wait");
      loopA.close();
      await readA;
      ok(epollFds().has(epfdA), "loop A's epoll set was closed while its idle wait was still queued");

      // Loop B opens next (before the fix: with A's number) and does one exchange.
      loopB = new EpollLoop(sockAddrOf("127.0.0.1", net.answering), new EpollSys());
      const sockB = await loopB.connect(signal);
      await sockB.write(REQUEST);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answered = await Promise.race([
        sockB.read(new Uint8Array(256)).then((n) => n !== null && n > 0),
        new Promise<boolean>((r) => timer = setTimeout(() => r(false), 5_000)),
      ]);
      clearTimeout(timer);
      ok(answered, "loop B's response never came: its event went to loop A's late idle wait");
      ok(await until(() => !sysA.idleWaitPending, 5_000), "loop A's idle wait never returned");
      ok(!epollFds().has(epfdA), "loop A's epoll set stayed open after its idle wait returned");
    } finally {
      loopB?.close();
      await Promise.all(sleeps);
      lib.close();
      await net.close();
    }
  },
});
