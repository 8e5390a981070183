/**
 * The engine's WebSocket client against raw servers on 127.0.0.1 that break RFC 6455 on purpose, on
 * both transports: each break is counted under its kind (never thrown, never a crash), the connection
 * closed and opened again, and the run ends in bounded time. Bounded counts (count model).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { acceptOf } from "../../../ws/handshake.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const BOUND_MS = 15_000;
const SENDS = 5;

/** How the server answers the handshake and then each client frame. */
interface Behaviour {
  /** The handshake's answer head from the key (default: a correct 101). */
  head?: (key: string) => string;
  /** Bytes sent for each read of client frames (default: nothing). */
  frames?: number[];
  /** Bytes sent right after the handshake. */
  greeting?: number[];
}

const GOOD_HEAD = (key: string) =>
  `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${
    acceptOf(key)
  }\r\n\r\n`;

async function serve(conn: Deno.Conn, how: Behaviour): Promise<void> {
  const buf = new Uint8Array(64 * 1024);
  let head = "";
  try {
    while (!head.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) return;
      head += new TextDecoder().decode(buf.subarray(0, n));
    }
    const key = /Sec-WebSocket-Key: (\S+)/i.exec(head)?.[1] ?? "";
    await conn.write(new TextEncoder().encode((how.head ?? GOOD_HEAD)(key)));
    if (how.greeting) await conn.write(Uint8Array.from(how.greeting));
    while ((await conn.read(buf)) !== null) if (how.frames) await conn.write(Uint8Array.from(how.frames));
  } catch {
    /* the client closed first */
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

async function attack(
  how: Behaviour,
  transport: "deno" | "epoll" | "io_uring",
  extra: Partial<AttackConfigInput> = {},
) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Promise<void>[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) conns.push(serve(conn, how));
    } catch { /* closed */ }
  })();
  const started = performance.now();
  try {
    const r: RunResult = await runAttack(parseAttackConfig({
      url: `ws://127.0.0.1:${listener.addr.port}/ws`,
      model: "count",
      connections: 1,
      requests: SENDS,
      timeoutMs: 800,
      transport,
      // These cases judge counts and error kinds, not latency: the generator's warm-up (its own tests)
      // would only add half a second to each.
      generatorWarmup: false,
      ...extra,
    } as AttackConfigInput));
    ok(performance.now() - started < BOUND_MS, "the run ended in bounded time");
    return r;
  } finally {
    listener.close();
    await accepting;
    await Promise.all(conns);
  }
}

const TEXT = (bytes: number[]) => [0x81, bytes.length, ...bytes];

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  const test = (name: string, fn: () => Promise<void>) =>
    Deno.test({
      name: `ws client vs a hostile server: ${name} [${transport}]`,
      ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      fn,
    });
  /** Every send failed under `kind` alone, none answered. */
  const only = (r: RunResult, kind: string) => {
    assertEquals([r.requests, Object.keys(r.errors)], [0, [kind]], JSON.stringify(r.errorMessages));
    ok(r.errors[kind]! >= 1);
  };

  test("a wrong Sec-WebSocket-Accept", async () => {
    only(
      await attack({ head: () => GOOD_HEAD("other").replace("Accept: ", "Accept: x") }, transport),
      "ws-bad-accept",
    );
  });
  test("200 instead of 101, its status named", async () => {
    const r = await attack({ head: () => "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n" }, transport);
    only(r, "ws-refused");
    assertEquals(Object.keys(r.errorMessages["ws-refused"]), ["status 200 instead of 101"]);
  });
  test("no Upgrade field", async () => {
    only(
      await attack({ head: (key) => GOOD_HEAD(key).replace("Upgrade: websocket\r\n", "") }, transport),
      "ws-handshake",
    );
  });
  test("a masked server frame", async () => {
    only(await attack({ frames: [0x81, 0x82, 1, 2, 3, 4, 0x41, 0x41] }, transport), "ws-protocol");
  });
  test("an oversized frame, refused at its header", async () => {
    const r = await attack({ frames: [0x82, 0x7f, 0, 0, 0, 1, 0, 0, 0, 0] }, transport);
    only(r, "ws-too-big");
  });
  test("a control frame over 125 bytes", async () => {
    only(await attack({ frames: [0x89, 0x7e, 0, 126, ...new Array(126).fill(0)] }, transport), "ws-protocol");
  });
  test("a fragmented control frame", async () => {
    only(await attack({ frames: [0x09, 0x00] }, transport), "ws-protocol");
  });
  test("endless empty continuation frames: refused at the frames-per-message cap", async () => {
    const r = await attack({ frames: [0x01, 0x00, ...new Array(20_000).fill(0)] }, transport);
    only(r, "ws-protocol");
    ok(Object.keys(r.errorMessages["ws-protocol"]).every((m) => m.includes("fragment flood")));
  });
  test("invalid UTF-8 in a text message", async () => {
    only(await attack({ frames: TEXT([0xc3, 0x28]) }, transport), "ws-bad-utf8");
  });
  test("a server that never answers: each send times out, the run ends on time", async () => {
    only(await attack({}, transport, { requests: 2 }), "timeout");
  });
  test("a server that never closes: a storm's close cut at the timeout, its messages answered", async () => {
    const r = await attack({ frames: TEXT([0x6f, 0x6b]) }, transport, {
      requests: 2,
      ws: { messagesPerConnection: 2 },
    } as never);
    assertEquals([r.requests, Object.keys(r.errors)], [4, ["timeout"]]);
    assertEquals(Object.keys(r.errorMessages.timeout), ["no close frame from the server within 800 ms"]);
  });
  test("a close storm: every connection closed by the server (1001) as it opens", async () => {
    const r = await attack({ greeting: [0x88, 0x02, 0x03, 0xe9] }, transport, { requests: SENDS });
    ok((r.ws?.closeCodes["1001"] ?? 0) >= 1, JSON.stringify(r.ws));
    // A send either never left (its connection closed by the greeting first) or was lost with it.
    ok(r.requests === 0 && Object.keys(r.errors).every((k) => k === "ws-closed"), JSON.stringify(r.errors));
  });
  test("every connection held a few bytes short of a capped message: the worker's budget refuses the excess", async () => {
    // Each connection gets 40 KiB of a 60 KiB message, never the rest: 64 KiB of buffer each, four of
    // them against a budget of two. At most two hold one at any time, so at least two are refused.
    const greeting = [0x82, 0x7e, 0xf0, 0x00, ...new Array(40 * 1024).fill(0x61)];
    const r = await attack({ greeting }, transport, {
      connections: 4,
      requests: 4,
      timeoutMs: 2_000,
      ws: { maxMessageBytes: 64 * 1024, maxBufferedBytes: 128 * 1024 },
    } as never);
    ok((r.errors["ws-too-big"] ?? 0) >= 2, JSON.stringify(r.errors));
    const reasons = Object.keys(r.errorMessages["ws-too-big"] ?? {});
    ok(
      reasons.every((m) => m.includes("131072-byte budget") && m.includes("--ws-max-buffered")),
      reasons.join(),
    );
  });
}
