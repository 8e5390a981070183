/**
 * A flow's ws steps against raw servers on 127.0.0.1 that break the handshake or RFC 6455 on purpose, on
 * both transports: each session fails once, under the one error kind that names the break (never a crash,
 * never a second error for the same session), the run ends in bounded time and keeps its other numbers.
 * Bounded counts (count model, two sessions).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { writeAll } from "../../system/write_all.ts";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import type { RunResult } from "../../results/mod.ts";
import { epollBlocker } from "../http/transport/choice.ts";
import { answer101, readUpgrade } from "../../tests/fixtures/ws_upgrade.ts";
import { acceptEach } from "../../tests/fixtures/accept_each.ts";

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const SESSIONS = 2;
const TIMEOUT_MS = 600;
/** A session's steps take at most three timeouts; the rest is slack for a busy machine. */
const BOUND_MS = 15_000;

/** How the server answers the handshake, and what it writes when the session's first message comes. */
interface Behaviour {
  head?: (key: string) => Uint8Array | null;
  /** Written right after the 101. */
  greeting?: number[];
  /** Written on each read of client frames. */
  reply?: number[];
  /** Ends its side of the TCP connection after the 101 (a half-close: it still reads). */
  halfClose?: boolean;
  /** Reads nothing after the handshake until the test ends. */
  deaf?: boolean;
}

async function serve(conn: Deno.TcpConn, how: Behaviour, ended: Promise<void>): Promise<void> {
  const key = await readUpgrade(conn);
  if (key === null) return;
  const head = how.head ? how.head(key) : answer101(key);
  const buf = new Uint8Array(64 * 1024);
  if (head === null) {
    while ((await conn.read(buf)) !== null);
    return;
  }
  await writeAll(conn, head);
  if (how.greeting) await writeAll(conn, Uint8Array.from(how.greeting));
  if (how.halfClose) await conn.closeWrite();
  if (how.deaf) return await ended;
  while ((await conn.read(buf)) !== null) if (how.reply) await writeAll(conn, Uint8Array.from(how.reply));
}

const STEPS = [
  { ws: { connect: "/ws" } },
  { ws: { send: "hi", match: { contains: "ok" }, name: "wait" } },
  { ws: { close: 1000 } },
];

async function flow(
  how: Behaviour,
  transport: "deno" | "epoll",
  steps: unknown[] = STEPS,
): Promise<RunResult> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const ended = Promise.withResolvers<void>();
  const server = acceptEach(listener, (conn) => serve(conn, how, ended.promise));
  const started = performance.now();
  try {
    const r = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${listener.addr.port}/`,
      model: "count",
      connections: 1,
      requests: SESSIONS,
      timeoutMs: TIMEOUT_MS,
      transport,
      generatorWarmup: false,
      flows: [{ name: "f", steps }],
    } as AttackConfigInput));
    ok(performance.now() - started < BOUND_MS, "the run ended in bounded time");
    return r;
  } finally {
    ended.resolve();
    await server.close();
  }
}

/** Every session failed, each counted once under `kind` (its message matching `says`). */
function failedAs(r: RunResult, kind: string, says: RegExp): void {
  const what = JSON.stringify({ errors: r.errors, messages: r.errorMessages, flows: r.flows });
  assertEquals([r.flows?.[0].sessions, r.flows?.[0].failed], [SESSIONS, SESSIONS], what);
  assertEquals(r.errors, { [kind]: SESSIONS }, what);
  ok(Object.keys(r.errorMessages[kind] ?? {}).every((m) => says.test(m)), what);
}

const TEXT = (bytes: number[]) => [0x81, bytes.length, ...bytes];
const OK = TEXT([0x6f, 0x6b]);
const ACCEPT = /Sec-WebSocket-Accept: \S+/;
const encode = (s: string) => new TextEncoder().encode(s);

for (const transport of ["deno", "epoll"] as const) {
  const test = (name: string, fn: () => Promise<void>) =>
    Deno.test({
      name: `ws steps vs a hostile server: ${name} [${transport}]`,
      ignore: transport === "epoll" && EPOLL_BLOCKER !== null,
      fn,
    });

  test("no answer to the handshake: timeout", async () => {
    failedAs(await flow({ head: () => null }, transport), "timeout", /no handshake answer within 600 ms/);
  });
  test("a wrong accept key", async () => {
    const head = (key: string) =>
      encode(new TextDecoder().decode(answer101(key)).replace(ACCEPT, "Sec-WebSocket-Accept: x"));
    failedAs(await flow({ head }, transport), "ws-bad-accept", /./);
  });
  test("101 without Upgrade", async () => {
    const head = (key: string) =>
      encode(new TextDecoder().decode(answer101(key)).replace("Upgrade: websocket\r\n", ""));
    failedAs(await flow({ head }, transport), "ws-handshake", /Upgrade/i);
  });
  test("a frame announcing 2^63 bytes, as the message awaited", async () => {
    const r = await flow({ reply: [0x82, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0] }, transport);
    failedAs(r, "ws-protocol", /./);
  });
  test("a frame announcing 2^63-1 bytes, as the message awaited", async () => {
    const r = await flow({ reply: [0x82, 0x7f, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff] }, transport);
    failedAs(r, "ws-too-big", /./);
  });
  test("invalid UTF-8 as the message awaited", async () => {
    failedAs(await flow({ reply: TEXT([0xc3, 0x28]) }, transport), "ws-bad-utf8", /./);
  });
  test("a ping of 126 bytes", async () => {
    failedAs(
      await flow({ reply: [0x89, 0x7e, 0, 126, ...new Array(126).fill(0)] }, transport),
      "ws-protocol",
      /./,
    );
  });
  test("a close with a code no endpoint sends (1005)", async () => {
    failedAs(await flow({ reply: [0x88, 0x02, 0x03, 0xed] }, transport), "ws-protocol", /./);
  });
  test("a close whose reason is not UTF-8", async () => {
    failedAs(await flow({ reply: [0x88, 0x04, 0x03, 0xe8, 0xc3, 0x28] }, transport), "ws-bad-utf8", /./);
  });
  test("pings without end, never the message: the step's timeout", async () => {
    const pings = new Array(2_000).fill([0x89, 0x00]).flat();
    failedAs(await flow({ reply: pings }, transport), "timeout", /no matching message within 600 ms/);
  });
  test("a half-close after the 101, the message awaited: ws-closed", async () => {
    failedAs(await flow({ halfClose: true }, transport), "ws-closed", /./);
  });
  test("a break right after the 101, before the step waits: counted once, under the step", async () => {
    const r = await flow({ greeting: TEXT([0xc3, 0x28]) }, transport);
    failedAs(r, "ws-bad-utf8", /./);
  });
  test("the message comes, the close is never answered: timeout at the close, the session's work kept", async () => {
    const r = await flow({ reply: OK }, transport);
    assertEquals([r.requests, r.flows?.[0].completed, r.errors], [SESSIONS, SESSIONS, { timeout: SESSIONS }]);
    assertEquals(Object.keys(r.errorMessages.timeout), ["no close frame from the server within 600 ms"]);
  });
  test("a server that reads nothing: a send waits for the last one's write, then the step's timeout", async () => {
    // 300 sends of 128 KiB that wait for no answer: each used to queue behind the last, 38 MiB here,
    // and 3,000 of 900 KB ended the worker. Now one waits at most, and the kernel's buffers hold the rest.
    const big = "a".repeat(128 * 1024);
    const sends = Array.from({ length: 300 }, () => ({ ws: { send: big } }));
    const r = await flow({ deaf: true }, transport, [{ ws: { connect: "/ws" } }, ...sends]);
    failedAs(r, "timeout", /the server took no more of the last message within 600 ms/);
    ok((r.ws?.messagesSent ?? 0) < 200, `${r.ws?.messagesSent} messages handed to the socket`);
  });
}
