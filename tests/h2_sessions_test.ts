/**
 * Flows (sessions) over HTTP/2, end to end: the built-in target's login pair (`POST /login` answers a
 * token and a session cookie; `GET /me` answers 200 only with both, of the same user) served by
 * `Deno.serve` on 127.0.0.1, which records what it received, run as a three-step flow over h2c (sessions
 * on shared kept-alive connections, and one connection per session) and h2 (TLS by ALPN, with the CA
 * file and with `insecure`) on each transport. Asserted: every session completes, a JSON capture feeds
 * the next step's header, a header and a regexp capture feed the third step, the session cookie goes
 * back on `/me`, checks are counted (one failing on purpose), connections per session, and the same
 * requests and results (in shape and counts) as over HTTP/1.1. And against a raw h2c server whose answer
 * is valid but awkward (an interim 103 head, the final head split by CONTINUATION, padded DATA pieces,
 * trailers): what a step keeps is the final head and the whole body. Bounded count loads.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { FlowSpec } from "../runner/flow_spec.ts";
import { type AttackConfigInput, parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import type { FlowResult, RunResult } from "../results/mod.ts";
import { createTargetApp } from "../targets/app/app.ts";
import { requireProgram, withTempDir } from "./helpers.ts";
import { makeTlsFixtures, TLS_TRANSPORTS } from "./tls_fixtures.ts";
import { startH2HostileServer } from "./fixtures/h2_hostile_server.ts";
import { requestSpec } from "./fixtures/request_spec.ts";
import { keepLoadWorkers } from "../runner/worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const SESSIONS = 6;
const USERS = ["ada", "bob, jr", "carol", "dave"];

const flow: FlowSpec = {
  name: "login-me",
  weight: 1,
  steps: [
    {
      request: requestSpec({
        method: "POST",
        path: "/login",
        headers: [["content-type", "application/json"]],
        body: new TextEncoder().encode('{"user":"{{ user }}","password":"secret"}'),
      }),
      capture: [{ json: "$.token", as: "token" }, { header: "Content-Type", as: "type" }],
      expect: [{ status: 200 }, { status: 201 }],
    },
    {
      request: requestSpec({
        method: "GET",
        path: "/me",
        headers: [["authorization", "Bearer {{ token }}"]],
      }),
      capture: [{ regexp: '"user":"([a-z]+)', as: "who" }],
      expect: [{ status: 200 }, { json: "$.user", exists: true }, { contains: '"user"' }],
    },
    { thinkMs: 5 },
    {
      request: requestSpec({
        method: "GET",
        path: "/json?who={{ who }}",
        headers: [["x-type", "{{ type }}"]],
      }),
    },
  ],
};

interface Seen {
  line: string;
  auth: string | null;
  cookie: string | null;
  type: string | null;
  status: number;
}

/** The built-in target's app on 127.0.0.1 (TLS when `cert` is given), recording each request. */
function serve(cert?: { cert: string; key: string }) {
  const seen: Seen[] = [];
  const { fetch } = createTargetApp();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...cert }, async (req) => {
    const u = new URL(req.url);
    const res = await fetch(req);
    seen.push({
      line: `${req.method} ${u.pathname}${u.search}`,
      auth: req.headers.get("authorization"),
      cookie: req.headers.get("cookie"),
      type: req.headers.get("x-type"),
      status: res.status,
    });
    return res;
  });
  const scheme = cert === undefined ? "http" : "https";
  return { url: `${scheme}://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

type Tls = { cert: string; key: string; tls: AttackConfigInput["tls"] };

/** One bounded load of SESSIONS sessions; its result and the requests the target saw, sorted. */
async function runFlow(
  protocol: "http1" | "h2c" | "h2",
  transport: string,
  perArrival: boolean,
  tls?: Tls,
): Promise<{ r: RunResult; seen: Seen[] }> {
  const server = serve(tls === undefined ? undefined : { cert: tls.cert, key: tls.key });
  try {
    const r = await runAttack(parseAttackConfig({
      url: server.url,
      model: "count",
      requests: SESSIONS,
      connections: 2,
      protocol,
      ...(perArrival ? { connection: "per-arrival" as const } : protocol === "http1" ? {} : { streams: 2 }),
      transport: transport as "deno" | "epoll",
      timeoutMs: 5_000,
      durationMs: 20_000,
      intervalMs: 100,
      data: { name: "users", columns: ["user"], rows: USERS.map((u) => [u]) },
      flows: [flow],
      ...(tls === undefined ? {} : { tls: tls.tls }),
    }));
    const seen = server.seen.sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
    return { r, seen };
  } finally {
    await server.close();
  }
}

/** A flow result with its latencies reduced to their keys: what must match across protocols. */
function shapeOf(f: FlowResult): unknown {
  return JSON.parse(
    JSON.stringify(
      f,
      (key, value) =>
        key === "latencyMs" || key === "sessionMs"
          ? value === null ? null : Object.keys(value).sort()
          : key === "sessionHistogramEncoded"
          ? typeof value
          : value,
    ),
  );
}

/** Every session completed, with the captures, cookie and checks it should have. */
function checkRun(what: string, protocol: string, perArrival: boolean, r: RunResult, seen: Seen[]): void {
  assertEquals(
    [r.protocol ?? "http1", r.errors, r.statusCodes],
    [protocol, {}, { "200": 3 * SESSIONS }],
    what,
  );
  const [f] = r.flows!;
  assertEquals([f.sessions, f.completed, f.failed, f.captureFailed ?? 0], [SESSIONS, SESSIONS, 0, 0], what);
  assertEquals(f.steps.map((s) => s.checks), [
    [{ name: "status 200", passed: SESSIONS, failed: 0 }, {
      name: "status 201",
      passed: 0,
      failed: SESSIONS,
    }],
    [
      { name: "status 200", passed: SESSIONS, failed: 0 },
      { name: "$.user exists", passed: SESSIONS, failed: 0 },
      { name: `contains ${JSON.stringify('"user"')}`, passed: SESSIONS, failed: 0 },
    ],
    undefined,
  ], what);
  // Rows in order, one per session: ada, "bob, jr", carol, dave, ada, "bob, jr".
  const users = Array.from({ length: SESSIONS }, (_, k) => USERS[k % USERS.length]);
  const me = seen.filter((s) => s.line === "GET /me");
  assertEquals(me.length, SESSIONS, what);
  for (const s of me) {
    ok(
      s.auth?.startsWith("Bearer t.") && s.cookie?.startsWith("session=s."),
      `${what}: ${JSON.stringify(s)}`,
    );
  }
  assertEquals(
    seen.filter((s) => s.line.startsWith("GET /json")).map((s) => [s.line, s.type]),
    users.map((u) => [`GET /json?who=${u.split(",")[0]}`, "application/json"]).sort(),
    what,
  );
  if (protocol === "http1") return;
  // A session per connection per arrival (its steps one after another on it); else 2 connections shared.
  assertEquals([r.connects, r.reconnects], [perArrival ? SESSIONS : 2, 0], what);
  ok(perArrival ? r.maxStreamsPerConnection === 1 : (r.maxStreamsPerConnection ?? 0) <= 2, what);
}

for (const transport of ["deno", "epoll"]) {
  Deno.test(`h2 sessions [${transport}]: the login flow over h2c (kept and per-arrival) as over HTTP/1.1`, async () => {
    const http1 = await runFlow("http1", transport, false);
    checkRun(`http1 [${transport}]`, "http1", false, http1.r, http1.seen);
    for (const perArrival of [false, true]) {
      const what = `h2c${perArrival ? " per-arrival" : ""} [${transport}]`;
      const h2c = await runFlow("h2c", transport, perArrival);
      checkRun(what, "h2c", perArrival, h2c.r, h2c.seen);
      assertEquals(h2c.seen, http1.seen, what);
      assertEquals(shapeOf(h2c.r.flows![0]), shapeOf(http1.r.flows![0]), what);
    }
  });
}

for (const transport of TLS_TRANSPORTS) {
  Deno.test(`h2 sessions [${transport}]: the login flow over h2 (TLS by ALPN; the CA, and insecure per arrival)`, async () => {
    if (!requireProgram("openssl")) return;
    await withTempDir(async (dir) => {
      const f = await makeTlsFixtures(dir);
      const cert = Deno.readTextFileSync(f.serverCert);
      const key = Deno.readTextFileSync(f.serverKey);
      const kept = await runFlow("h2", transport, false, { cert, key, tls: { caFile: f.ca } });
      checkRun(`h2 [${transport}]`, "h2", false, kept.r, kept.seen);
      const arrival = await runFlow("h2", transport, true, { cert, key, tls: { insecure: true } });
      checkRun(`h2 per-arrival [${transport}]`, "h2", true, arrival.r, arrival.seen);
      assertEquals(arrival.seen, kept.seen);
      assertEquals(shapeOf(arrival.r.flows![0]), shapeOf(kept.r.flows![0]));
    });
  });
}

const splitFlow: FlowSpec = {
  name: "split",
  weight: 1,
  steps: [
    {
      request: requestSpec({ method: "POST", path: "/login" }),
      capture: [{ header: "x-kind", as: "kind" }, { json: "$.token", as: "token" }],
      expect: [{ status: 200 }, { json: "$.tail", equals: true }, { contains: '"tok"' }],
    },
    {
      request: requestSpec({ method: "GET", path: "/next/{{ kind }}?t={{ token }}" }),
      expect: [{ status: 200 }],
    },
  ],
};

for (const transport of ["deno", "epoll"] as const) {
  Deno.test(`h2 sessions [${transport}]: a step keeps the final head and the whole body of a split, padded answer`, async () => {
    const server = startH2HostileServer("split-answer");
    try {
      const r = await runAttack(parseAttackConfig({
        url: server.origin,
        model: "count",
        requests: 2,
        connections: 1,
        protocol: "h2c",
        transport,
        timeoutMs: 5_000,
        durationMs: 20_000,
        flows: [splitFlow],
      }));
      assertEquals([r.errors, r.statusCodes], [{}, { "200": 4 }]);
      const [f] = r.flows!;
      assertEquals([f.sessions, f.completed, f.failed], [2, 2, 0]);
      assertEquals(f.steps.map((s) => s.checks?.map((c) => [c.passed, c.failed])), [
        [[2, 0], [2, 0], [2, 0]],
        [[
          2,
          0,
        ]],
      ]);
      // The header capture took the final head's value (not the 103's or the trailers'); the cookie came
      // back.
      assertEquals(server.received.heads, [
        "/login -",
        "/next/final?t=tok s=1",
        "/login -",
        "/next/final?t=tok s=1",
      ]);
    } finally {
      await server.close();
    }
  });
}
