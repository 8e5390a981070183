/**
 * The engine's HTTP/1.1 client against raw servers on 127.0.0.1 that answer every request with the same
 * fixed bytes (valid but unusual, or malformed), on both transports: a valid answer is counted as a
 * response with its status, never as an error; a malformed one is counted once under its kind; a body
 * framed by the close is logged like any other response. Bounded counts (count model), exact results.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
/**
 * Longest a run may take: a hang, not a pace. The file's first run also starts the worker's module graph
 * for the first time, which took 15 s at a load average of 20 on two cores.
 */
const BOUND_MS = 30_000;
const REQUESTS = 12;

interface RawServer {
  url: string;
  close(): Promise<void>;
}

/** How the server sends: the answer whole, then the close after it, or one byte per write and a tick. */
type Sending = "keep" | "close" | "byte-by-byte";

/** Reads request heads off `conn` and answers each with `answer`, sent as `sending` says. */
async function serve(conn: Deno.Conn, answer: Uint8Array, sending: Sending): Promise<void> {
  const buf = new Uint8Array(16 * 1024);
  let pending = "";
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) break;
      pending += new TextDecoder().decode(buf.subarray(0, n));
      let end: number;
      while ((end = pending.indexOf("\r\n\r\n")) >= 0) {
        pending = pending.slice(end + 4);
        if (sending !== "byte-by-byte") await conn.write(answer);
        else {
          for (let k = 0; k < answer.length; k++) {
            await conn.write(answer.subarray(k, k + 1));
            await new Promise((tick) => setTimeout(tick, 0));
          }
        }
        if (sending === "close") return;
      }
    }
  } catch {
    /* the client closed first */
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

function startRawServer(answer: string, sending: Sending): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const bytes = new Uint8Array([...answer].map((c) => c.charCodeAt(0))); // latin-1: obs-text stays one byte
  const conns: Promise<void>[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) conns.push(serve(conn, bytes, sending));
    } catch { /* listener closed */ }
  })();
  return {
    url: `http://127.0.0.1:${listener.addr.port}/`,
    async close() {
      listener.close();
      await accepting;
      await Promise.all(conns);
    },
  };
}

async function attack(
  answer: string,
  transport: "deno" | "epoll" | "io_uring",
  sending: Sending = "keep",
  extra: Partial<AttackConfigInput> = {},
): Promise<RunResult> {
  const server = startRawServer(answer, sending);
  const started = performance.now();
  try {
    const r = await runAttack(parseAttackConfig({
      url: server.url,
      model: "count",
      connections: 1,
      requests: REQUESTS,
      timeoutMs: 2000,
      // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
      // would only add time to each case.
      generatorWarmup: false,
      transport,
      ...extra,
    } as AttackConfigInput));
    ok(performance.now() - started < BOUND_MS, "the run ended in bounded time");
    return r;
  } finally {
    await server.close();
  }
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  const test = (name: string, fn: () => Promise<void>) =>
    Deno.test({
      name: `h1 client vs a raw server: ${name} [${transport}]`,
      ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      fn,
    });

  // RFC 9112 4: status-code is 3DIGIT; RFC 9110 15: a code outside 100-599 is processed as a server
  // error, not refused (llhttp, h11, Go and curl all read it). It is final, never an interim 1xx.
  for (const code of ["000", "099", "600", "999"]) {
    test(`status ${code} is a response counted as itself`, async () => {
      const r = await attack(`HTTP/1.1 ${code} Odd\r\nContent-Length: 2\r\n\r\nok`, transport);
      assertEquals([r.requests, r.errors, r.statusCodes], [REQUESTS, {}, {
        [String(Number(code))]: REQUESTS,
      }]);
    });
  }

  test("several interim heads, an empty reason with obs-text and HTAB in the next", async () => {
    const r = await attack(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n" +
        "HTTP/1.1 102 \r\n\r\nHTTP/1.1 200 \xe9\tok\xff\r\nContent-Length: 2\r\n\r\nok",
      transport,
    );
    assertEquals([r.requests, r.errors, r.statusCodes], [REQUESTS, {}, { "200": REQUESTS }]);
  });

  test("a body framed by the close is a response, and logged as one", async () => {
    const dir = await Deno.makeTempDir({ prefix: "loadlab-h1-hostile-" });
    try {
      const logFile = `${dir}/requests.csv`;
      const r = await attack("HTTP/1.1 200 OK\r\n\r\nuntil the close", transport, "close", { logFile });
      assertEquals([r.requests, r.errors], [REQUESTS, {}]);
      const lines = (await Deno.readTextFile(logFile)).split("\n").filter((l) => /^\d+;/.test(l));
      assertEquals(lines.length, REQUESTS, "one log line per response");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  test("a server that closes mid-body: counted closed-early, never a response", async () => {
    const r = await attack("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", transport, "close");
    assertEquals([r.requests, r.errors], [0, { "closed-early": REQUESTS }]);
    assertEquals(Object.keys(r.errorMessages["closed-early"]), [
      "connection closed before the response ended",
    ]);
  });

  // RFC 9112 9.3: a server may close a persistent connection at any time; the request sent on it after
  // the close was never answered, which the count says apart from a response cut short.
  test("a server that closes after each kept-alive response: the next request on it is unanswered", async () => {
    const r = await attack("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", transport, "close");
    const unanswered = r.errors["closed-early"] ?? 0;
    ok(r.requests > 0 && unanswered > 0, JSON.stringify(r.errors));
    assertEquals(r.requests + unanswered, REQUESTS);
    assertEquals(Object.keys(r.errorMessages["closed-early"]), [
      "connection closed before the response began",
    ]);
  });

  // A step whose response does not parse was not answered: its session fails there, as on a timeout.
  for (
    const [what, answer] of [
      ["a malformed head", "HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 2\r\n\r\nok"],
      ["a body longer than its Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA"],
    ]
  ) {
    test(`a flow step answered by ${what} fails its session`, async () => {
      const r = await attack(answer, transport, "keep", {
        requests: 3,
        flows: [{
          name: "two",
          weight: 1,
          steps: [
            { request: { method: "GET", path: "/a", headers: [], weight: 1 } },
            { request: { method: "GET", path: "/b", headers: [], weight: 1 } },
          ],
        }],
      });
      const [flow] = r.flows ?? [];
      assertEquals([flow.sessions, flow.completed, flow.failed], [3, 0, 3]);
      assertEquals(flow.steps.map((step) => [step.requests, step.errors]), [[0, 3], [0, 0]]);
      assertEquals([r.requests, r.errors], [0, { parse: 3 }]);
    });
  }

  test("pipelined answers arriving a byte at a time: every boundary found, every request answered", async () => {
    const r = await attack(
      "\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\nTransfer-Encoding: gzip, chunked\nX: a\n b\n\n" +
        '05;x="a\\"b"\r\nhello\r\n0\r\nT: t\r\n\r\n',
      transport,
      "byte-by-byte",
      { pipelining: 3 },
    );
    assertEquals([r.requests, r.errors, r.statusCodes], [REQUESTS, {}, { "200": REQUESTS }]);
  });
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  // A response that began and never ended: its timeout says what had come of it, not "nothing had
  // arrived" (the kernel's queue is empty by then: everything that came was read).
  Deno.test({
    name: `h1 client vs a raw server: a body that stops short times out saying it had begun [${transport}]`,
    ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
      (transport === "io_uring" && URING_BLOCKER !== null),
    async fn() {
      const r = await attack(
        `HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n${"x".repeat(20_000)}`,
        transport,
        "keep",
        { requests: 2, timeoutMs: 300 },
      );
      assertEquals([r.requests, Object.keys(r.errorMessages.timeout ?? {})], [0, [
        "no complete response within 300 ms: over 10 KiB of it had arrived",
      ]]);
    },
  });
}
