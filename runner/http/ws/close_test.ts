/**
 * The close handshake as a server sees it (RFC 6455 5.5.1, 7.1.1, 7.4), on every transport (Deno sockets,
 * epoll, io_uring), with raw servers on 127.0.0.1 that record the client's frames: the client answers a
 * server's close with the same code, sends 1002, 1007 or 1009 when it fails a connection for a protocol
 * fault, bad UTF-8 or a message over its cap, and leaves the TCP close to the server (it holds the
 * TIME_WAIT, not a storm's ports). An answer that comes before the send was written whole cannot be its
 * answer. Bounded counts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { answer101, readUpgrade } from "../../../tests/fixtures/ws_upgrade.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
/** How long a server waits, after its close went out, to see whether the client closed TCP first. */
const FIRST_CLOSE_WAIT_MS = 300;

/** What one connection's server saw: the client's frames (opcode, payload) and who closed TCP first. */
interface Seen {
  frames: Array<[number, number[]]>;
  clientClosedFirst: boolean;
  /**
   * The client reset the connection (its close with bytes it had not read): the kernel may drop what it sent
   * last.
   */
  reset: boolean;
}

/** The client's frames in `bytes` (masked, as a client must); the bytes left over. */
function clientFrames(bytes: number[], out: Array<[number, number[]]>): number[] {
  let at = 0;
  while (bytes.length - at >= 6) {
    let length = bytes[at + 1] & 0x7f, header = 2;
    if (length === 126) [length, header] = [(bytes[at + 2] << 8) | bytes[at + 3], 4];
    if (bytes.length - at < header + 4 + length) break;
    const key = bytes.slice(at + header, at + header + 4);
    const payload = bytes.slice(at + header + 4, at + header + 4 + length).map((b, i) => b ^ key[i & 3]);
    out.push([bytes[at] & 0x0f, payload]);
    at += header + 4 + length;
  }
  return bytes.slice(at);
}

/**
 * A server that answers the handshake, then `onFrame` for each client frame (what to write back); after
 * the client's close frame (or `closeFirst`, its own close, sent at once), it waits to see whether the
 * client closes TCP first, then closes.
 */
async function serve(conn: Deno.Conn, seen: Seen[], how: Behaviour): Promise<void> {
  const record: Seen = { frames: [], clientClosedFirst: false, reset: false };
  seen.push(record);
  const buf = new Uint8Array(64 * 1024);
  let pending: number[] = [];
  try {
    const key = await readUpgrade(conn, buf);
    if (key === null) return;
    await conn.write(
      Uint8Array.from([
        ...answer101(key),
        ...(how.greeting ?? []),
        ...(how.pingPong ? [...PING, ...PING, ...PING, ...PING] : []),
      ]),
    );
    let closed = how.greeting?.[0] === 0x88;
    while (true) {
      if (closed && record.frames.some(([op]) => op === 8)) break;
      const n = await conn.read(buf);
      if (n === null) {
        record.clientClosedFirst = true;
        return;
      }
      const known = record.frames.length;
      pending = clientFrames([...pending, ...buf.subarray(0, n)], record.frames);
      for (const [op, payload] of record.frames.slice(known)) {
        if (op === 8 && !closed) {
          await conn.write(Uint8Array.from([0x88, payload.length, ...payload]));
          closed = true;
        } else if (op < 8 && how.answer) await conn.write(Uint8Array.from(how.answer(op, payload)));
        else if (op === 0xa && how.pingPong && !closed) await conn.write(PING);
      }
    }
    const timer = new Promise<"waited">((resolve) =>
      setTimeout(() => resolve("waited"), FIRST_CLOSE_WAIT_MS)
    );
    const read = conn.read(buf).then((n) => n === null ? "closed" : "data", () => "closed");
    record.clientClosedFirst = (await Promise.race([read, timer])) === "closed";
  } catch {
    record.reset = true; // reset by the client
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

interface Behaviour {
  /** Bytes written with the 101. */
  greeting?: number[];
  /** What to write back for a client data frame. */
  answer?: (opcode: number, payload: number[]) => number[];
  /** Four pings with the 101, and another for each pong: the client has a pong to send at any time. */
  pingPong?: boolean;
}

const PING = Uint8Array.from([0x89, 0x00]);

async function attack(
  how: Behaviour,
  transport: "deno" | "epoll" | "io_uring",
  extra: Partial<AttackConfigInput>,
) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: Seen[] = [];
  const conns: Promise<void>[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) conns.push(serve(conn, seen, how));
    } catch { /* closed */ }
  })();
  try {
    const input: Record<string, unknown> = {
      url: `ws://127.0.0.1:${listener.addr.port}/ws`,
      model: "count",
      connections: 1,
      requests: 1,
      timeoutMs: 2000,
      // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
      // would only add time to each case.
      generatorWarmup: false,
      transport,
      ...extra,
    };
    // A field `extra` sets to undefined is one its model does not have (the count model's `requests`).
    for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
    const r: RunResult = await runAttack(parseAttackConfig(input as AttackConfigInput));
    return { r, seen };
  } finally {
    listener.close();
    await accepting;
    await Promise.all(conns);
  }
}

const ECHO = (op: number, payload: number[]) => [0x80 | op, payload.length, ...payload];
/** The close codes of the client's close frames. */
const closeCodes = (seen: Seen[]) =>
  seen.flatMap((s) => s.frames.filter(([op]) => op === 8).map(([, p]) => (p[0] << 8) | p[1]));

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  const test = (name: string, fn: () => Promise<void>) =>
    Deno.test({
      name: `ws close handshake: ${name} [${transport}]`,
      ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      fn,
    });

  test("a storm's close (1000) is echoed; the client waits for the server's TCP close", async () => {
    const { r, seen } = await attack({ answer: ECHO }, transport, {
      requests: 3,
      ws: { messagesPerConnection: 1 },
    } as never);
    assertEquals([r.requests, r.errors], [3, {}]);
    assertEquals(closeCodes(seen), [1000, 1000, 1000]);
    assertEquals(seen.map((s) => s.clientClosedFirst), [false, false, false]);
  });
  test("at the run's end an open connection says 1001 (going away), even behind a send in flight", async () => {
    // The server never answers the message and keeps four pings in flight: each pong the client sends
    // is answered by the next ping, so when the graceful stop ends the run a connection has often just
    // sent a pong (on io_uring: its send submitted, its completion not reaped yet) and its 1001 goes
    // behind it. Six connections: at least one of them does, nearly always.
    const { seen } = await attack({ pingPong: true }, transport, {
      model: "connections",
      connections: 6,
      requests: undefined,
      durationMs: 200,
      gracefulStopMs: 100,
    } as never);
    assertEquals(seen.length, 6);
    // A client that closes with pings it has not read resets the connection, and the server's kernel may
    // then drop the last bytes it had (the 1001 with them), on every transport: that happens on a busy
    // machine and says nothing of the client. Every connection closed in order shows the 1001.
    for (const s of seen.filter((s) => !s.reset)) {
      assertEquals(closeCodes([s]), [1001], JSON.stringify(s.frames.slice(-3)));
    }
  });
  test("a server's close (4001) is answered with 4001 before the client lets the TCP go", async () => {
    const { r, seen } = await attack({ greeting: [0x88, 0x02, 0x0f, 0xa1] }, transport, {
      requests: 1,
      timeoutMs: 1000,
    });
    ok((r.ws?.closeCodes["4001"] ?? 0) >= 1, JSON.stringify(r.ws));
    ok(closeCodes(seen).length >= 1 && closeCodes(seen).every((c) => c === 4001), JSON.stringify(seen));
    ok(seen.every((s) => !s.clientClosedFirst), JSON.stringify(seen));
    // Nothing after a close frame: no message sent on a connection the server closed.
    ok(seen.every((s) => s.frames.every(([op]) => op === 8)), JSON.stringify(seen));
  });
  test("a ping with every 101 is answered by a pong with its payload, on every connection (not only the first)", async () => {
    const { r, seen } = await attack({ greeting: [0x89, 0x03, 0x61, 0x62, 0x63], answer: ECHO }, transport, {
      requests: 2,
      ws: { messagesPerConnection: 1 },
    } as never);
    assertEquals([r.requests, r.errors], [2, {}], JSON.stringify(seen));
    const pongs = seen.flatMap((s) => s.frames.filter(([op]) => op === 0xa).map(([, p]) => p));
    assertEquals(pongs, [[0x61, 0x62, 0x63], [0x61, 0x62, 0x63]]);
  });
  for (
    const [fault, frame, code] of [
      ["a masked frame: 1002", [0x81, 0x81, 1, 2, 3, 4, 0x41], 1002],
      ["bad UTF-8: 1007", [0x81, 0x02, 0xc3, 0x28], 1007],
      ["a message over the cap: 1009", [0x82, 0x7e, 0x01, 0x00], 1009],
    ] as const
  ) {
    test(`the close code sent when failing the connection for ${fault}`, async () => {
      const { r, seen } = await attack({ answer: () => [...frame] }, transport, {
        ws: { maxMessageBytes: 200 },
      } as never);
      assertEquals(r.requests, 0);
      assertEquals(closeCodes(seen).slice(0, 1), [code], JSON.stringify(seen));
    });
  }
  test("an answer before the send was written whole is no answer (a server that never reads)", async () => {
    // 32 MiB to send: more than loopback's socket buffers take while the server reads nothing.
    const big = "x".repeat(32 * 1024 * 1024);
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of listener) {
        held.push(conn);
        const key = await readUpgrade(conn);
        if (key === null) continue;
        await conn.write(answer101(key));
        // Messages that would answer any send, never a read again.
        for (let i = 0; i < 20; i++) await conn.write(Uint8Array.from([0x81, 0x02, 0x6f, 0x6b]));
      }
    })().catch(() => {});
    try {
      const r = await runAttack(parseAttackConfig({
        url: `ws://127.0.0.1:${listener.addr.port}/ws`,
        model: "count",
        connections: 1,
        requests: 2,
        timeoutMs: 1000,
        // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
        // would only add time to each case.
        generatorWarmup: false,
        transport,
        ws: { messages: [big] },
      } as AttackConfigInput));
      assertEquals([r.requests, Object.keys(r.errors)], [0, ["timeout"]], JSON.stringify(r.errorMessages));
    } finally {
      listener.close();
      for (const conn of held) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await accepting;
    }
  });
}
