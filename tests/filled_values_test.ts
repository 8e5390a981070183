/**
 * Values from outside never change a request's shape: a token with CR LF captured from a login answer,
 * and a CSV field with a quoted line break, are refused where they would end a line (a header, the
 * path) and counted as `bad-value`, never sent; path and query values are percent-encoded unless
 * written `| raw`. Asserted on the bytes a raw TCP server received (HTTP/1.1, both transports) and on
 * what a node:http2 server saw (h2c). Count loads of a few sessions each.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import * as http2 from "node:http2";
import type { FlowSpec } from "../runner/flow_spec.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { requestSpec } from "./fixtures/request_spec.ts";
import { readDataFile } from "../scenarios/data_sources.ts";
import type { RunResult } from "../results/mod.ts";
import { countingServer } from "./fixtures/balancer_testing.ts";
import { keepLoadWorkers } from "../runner/worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const INJECTED = "X-Injected: 1";
/** What the login answers: a JSON string whose value holds CR LF and a header line. */
const LOGIN_BODY = JSON.stringify({
  token: `t1\r\n${INJECTED}`,
  next: "/next/7",
  safe: "a b&c=d",
  pre: "x%2Fy",
});

/** Bytes of one request's head and body from `buf` at `from`, or -1 when it is not all there yet. */
function requestEnd(buf: string, from: number): number {
  const headEnd = buf.indexOf("\r\n\r\n", from);
  if (headEnd < 0) return -1;
  const length = /content-length: *(\d+)/i.exec(buf.slice(from, headEnd));
  const end = headEnd + 4 + (length ? Number(length[1]) : 0);
  return end <= buf.length ? end : -1;
}

/** The "encoded" flow's second path as sent. */
const ENCODED = "/next/7/a%20b&c=d?q=a%20b%26c%3Dd&r=x%2Fy&s=%2Fnext%2F7&t=x%252Fy";

/** A raw HTTP/1.1 server on 127.0.0.1 recording every byte it receives; /login answers LOGIN_BODY. */
function rawServer() {
  const received: string[] = [];
  const server = countingServer(async (conn) => {
    const decoder = new TextDecoder("latin1");
    const chunk = new Uint8Array(16384);
    let buf = "";
    for (let n = await conn.read(chunk); n !== null; n = await conn.read(chunk)) {
      const text = decoder.decode(chunk.subarray(0, n));
      received.push(text);
      buf += text;
      for (let end = requestEnd(buf, 0); end >= 0; end = requestEnd(buf, 0)) {
        const body = buf.startsWith("POST /login") ? LOGIN_BODY : "ok";
        buf = buf.slice(end);
        const head =
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
        await conn.write(new TextEncoder().encode(head + body));
      }
    }
  });
  /** Everything received, in order of arrival. */
  return { url: server.url, bytes: () => received.join(""), close: () => server.close() };
}

/** Log in, then send the token in a header; log in, then in the path; log in, then raw and encoded values. */
const flows: FlowSpec[] = [
  {
    name: "header",
    weight: 1,
    steps: [
      {
        request: requestSpec({ method: "POST", path: "/login" }),
        capture: [{ json: "$.token", as: "token" }],
      },
      { request: requestSpec({ path: "/me", headers: [["authorization", "Bearer {{ token }}"]] }) },
    ],
  },
  {
    name: "path",
    weight: 1,
    steps: [
      {
        request: requestSpec({ method: "POST", path: "/login" }),
        capture: [{ json: "$.token", as: "token" }],
      },
      { request: requestSpec({ path: "/users/{{ token }}" }) },
    ],
  },
  {
    name: "encoded",
    weight: 1,
    steps: [
      {
        request: requestSpec({ method: "POST", path: "/login" }),
        capture: [{ json: "$.next", as: "next" }, { json: "$.safe", as: "safe" }, {
          json: "$.pre",
          as: "pre",
        }],
      },
      {
        request: requestSpec({
          path: "{{ next }}/{{ safe }}?q={{ safe }}&r={{ pre | raw }}&s={{ next }}&t={{ pre }}",
        }),
      },
    ],
  },
];

/** A count load of three arrivals on one connection, with `extra` (flows or a mix, transport, protocol). */
function countRun(url: string, extra: Record<string, unknown>): Promise<RunResult> {
  return runAttack(parseAttackConfig({
    url,
    model: "count",
    requests: 3,
    connections: 1,
    timeoutMs: 5_000,
    durationMs: 20_000,
    intervalMs: 100,
    ...extra,
  }));
}

for (const transport of ["deno", "epoll"] as const) {
  Deno.test(`filled values [${transport}]: a captured CR LF never reaches the wire; counted as bad-value`, async () => {
    const server = rawServer();
    try {
      const r = await countRun(server.url, { transport, flows });
      const bytes = server.bytes();
      ok(!bytes.includes(`\r\n${INJECTED}`), `an injected header line reached the server:\n${bytes}`);
      ok(!bytes.includes("/me") && !bytes.includes("/users/"), "a request with a refused value was sent");
      assertEquals(r.errors["bad-value"], 2);
      assertEquals(r.errorMessages["bad-value"], {
        '{{ token }} in header "authorization" holds CR, LF or NUL: not sent': 1,
        "{{ token }} in the path holds CR, LF or NUL: not sent": 1,
      });
      const byName = Object.fromEntries(r.flows!.map((f) => [f.name, [f.sessions, f.completed, f.failed]]));
      assertEquals(byName, { header: [1, 0, 1], path: [1, 0, 1], encoded: [1, 1, 0] });
      // A path keeps its slashes, a query value is one value, `| raw` is sent as it is.
      ok(bytes.includes(`GET ${ENCODED} HTTP/1.1\r\n`), bytes);
    } finally {
      await server.close();
    }
  });

  Deno.test(`filled values [${transport}]: a CSV field with a quoted line break is refused per row, the others sent`, async () => {
    const server = rawServer();
    const dir = Deno.makeTempDirSync();
    try {
      Deno.writeTextFileSync(`${dir}/users.csv`, `name\nalice\n"bob\r\n${INJECTED}"\ncarol\n`);
      const table = readDataFile(`${dir}/users.csv`);
      const r = await countRun(server.url, {
        transport,
        data: { name: "users", columns: table.columns, rows: table.rows, order: "unique", whenDone: "stop" },
        requestMix: [requestSpec({ path: "/u", headers: [["x-user", "{{ name }}"]] })],
      });
      const bytes = server.bytes();
      ok(!bytes.includes(`\r\n${INJECTED}`), `an injected header line reached the server:\n${bytes}`);
      assertEquals(bytes.match(/x-user: \w+/g), ["x-user: alice", "x-user: carol"]);
      assertEquals([r.statusCodes["200"], r.errors["bad-value"]], [2, 1]);
    } finally {
      await server.close();
      Deno.removeSync(dir, { recursive: true });
    }
  });
}

for (const transport of ["deno", "epoll"] as const) {
  Deno.test(`filled values [${transport}]: a closed load whose every row is refused ends on time, counted`, async () => {
    const server = rawServer();
    const dir = Deno.makeTempDirSync();
    try {
      Deno.writeTextFileSync(`${dir}/users.csv`, `name\n"bob\r\n${INJECTED}"\n`);
      const table = readDataFile(`${dir}/users.csv`);
      // Refused requests complete nothing on a connection that stays open: a loop that went straight on
      // settled promises only, so the load's end never ran and the pool ended the worker as stuck.
      const r = await runAttack(parseAttackConfig({
        url: server.url,
        model: "connections",
        connections: 1,
        durationMs: 500,
        gracefulStopMs: 0,
        intervalMs: 100,
        transport,
        data: { name: "users", columns: table.columns, rows: table.rows },
        requestMix: [requestSpec({ path: "/u", headers: [["x-user", "{{ name }}"]] })],
      }));
      assertEquals([r.requests, r.stuckWorkers, r.incomplete], [0, undefined, undefined]);
      ok((r.errors["bad-value"] ?? 0) > 0, JSON.stringify(r.errors));
      ok(!server.bytes().includes(INJECTED), "a refused value reached the server");
    } finally {
      await server.close();
      Deno.removeSync(dir, { recursive: true });
    }
  });
}

/** An h2c server (node:http2) recording each request's path and headers; /login answers LOGIN_BODY. */
async function h2cServer() {
  const seen: Array<Record<string, unknown>> = [];
  const server = http2.createServer((req, res) => {
    seen.push({ ...req.headers });
    req.resume();
    req.on("end", () => res.end(req.url === "/login" ? LOGIN_BODY : "ok"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

for (const transport of ["deno", "epoll"] as const) {
  Deno.test(`filled values [h2c, ${transport}]: a captured CR LF is refused in a field and :path; counted`, async () => {
    const server = await h2cServer();
    try {
      const r = await countRun(server.url, { transport, flows, protocol: "h2c", streams: 1 });
      const paths = server.seen.map((h) => h[":path"]);
      ok(
        !paths.includes("/me") && !paths.some((p) => String(p).startsWith("/users/")),
        JSON.stringify(paths),
      );
      ok(server.seen.every((h) => !("x-injected" in h)), JSON.stringify(server.seen));
      assertEquals(r.errors["bad-value"], 2);
      ok(paths.includes(ENCODED), JSON.stringify(paths));
    } finally {
      await server.close();
    }
  });
}
