/**
 * Session features end to end through real worker isolates against a real `Deno.serve` target on
 * 127.0.0.1: captures of each kind (JSON path, header, regexp group) reused in later steps' path,
 * headers and body; checks passed and failed, counted per check; a capture that finds nothing ends
 * its session (counted) while the run goes on; the cookie jar (carried, path-scoped, Max-Age expiry,
 * Secure not sent over http, a foreign Domain refused). Count loads of a few sessions each.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { FlowSpec } from "../flow_spec.ts";
import { parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import { requestSpec } from "../../tests/fixtures/request_spec.ts";
import { eachRequestHead } from "../../tests/fixtures/request_heads.ts";
import { keepLoadWorkers } from "../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

interface Seen {
  path: string;
  cookie: string | null;
  auth: string | null;
  body: string;
}

function startTarget(): { url: string; seen: Seen[]; close(): Promise<void> } {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    seen.push({
      path,
      cookie: req.headers.get("cookie"),
      auth: req.headers.get("authorization"),
      body: await req.text(),
    });
    if (path === "/login") {
      const headers = new Headers({ "content-type": "application/json", location: "/next/7" });
      headers.append("set-cookie", "session=s1; Path=/");
      headers.append("set-cookie", "short=x; Max-Age=1");
      headers.append("set-cookie", "private=p; Path=/private");
      headers.append("set-cookie", "secure=no; Secure");
      headers.append("set-cookie", "foreign=f; Domain=other.example");
      return new Response(JSON.stringify({ token: "tok-1", user: { ids: [5, 6] }, ok: true }), { headers });
    }
    return new Response(`welcome; id=42 at ${path}`);
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

/** `requests` sessions of `flows` on one connection, one after another. */
function countSessions(url: string, requests: number, flows: FlowSpec[], cookies = true) {
  return runAttack(
    parseAttackConfig({ url, model: "count", requests, connections: 1, intervalMs: 100, cookies, flows }),
  );
}

/** A login step capturing the JSON path `json` as `as`. */
function loginCapturing(json: string, as: string): FlowSpec["steps"][number] {
  return { request: requestSpec({ method: "POST", path: "/login" }), capture: [{ json, as }] };
}

const flow: FlowSpec = {
  name: "login",
  weight: 1,
  steps: [
    {
      request: requestSpec({ method: "POST", path: "/login" }),
      capture: [
        { json: "$.token", as: "token" },
        { json: "$.user.ids[1]", as: "second" },
        { header: "Location", as: "next" },
      ],
      expect: [{ status: 200 }, { json: "$.ok", equals: true }, { json: "$.user", exists: true }, {
        status: 201,
      }],
    },
    {
      request: requestSpec({
        method: "GET",
        path: "{{ next }}/{{second}}",
        headers: [["authorization", "Bearer {{ token }}"]],
      }),
      capture: [{ regexp: "id=(\\d+)", as: "id" }],
      expect: [{ contains: "welcome" }, { contains: "nope" }],
    },
    {
      request: requestSpec({ method: "POST", path: "/items", body: new TextEncoder().encode("id={{ id }}") }),
    },
    { thinkMs: 1100 },
    { request: requestSpec({ method: "GET", path: "/private/x" }) },
  ],
};

Deno.test("captures of each kind feed later steps; checks counted per check; cookies carried and expired", async () => {
  const target = startTarget();
  try {
    const r = await runAttack(parseAttackConfig({
      url: target.url,
      model: "count",
      requests: 2,
      connections: 1,
      intervalMs: 100,
      flows: [flow],
    }));
    const [f] = r.flows!;
    assertEquals([f.sessions, f.completed, f.failed], [2, 2, 0]);
    assertEquals(f.steps[0].checks, [
      { name: "status 200", passed: 2, failed: 0 },
      { name: "$.ok == true", passed: 2, failed: 0 },
      { name: "$.user exists", passed: 2, failed: 0 },
      { name: "status 201", passed: 0, failed: 2 },
    ]);
    assertEquals(f.steps[1].checks, [
      { name: 'contains "welcome"', passed: 2, failed: 0 },
      { name: 'contains "nope"', passed: 0, failed: 2 },
    ]);
    const second = target.seen.filter((s) => s.path === "/next/7/6");
    assertEquals(second.map((s) => [s.auth, s.cookie]), [["Bearer tok-1", "session=s1; short=x"], [
      "Bearer tok-1",
      "session=s1; short=x",
    ]]);
    assertEquals(target.seen.filter((s) => s.path === "/items").map((s) => s.body), ["id=42", "id=42"]);
    // After the think: `short` expired (Max-Age=1), `private` now in path; Secure and foreign never sent.
    assertEquals(target.seen.filter((s) => s.path === "/private/x").map((s) => s.cookie), [
      "private=p; session=s1",
      "private=p; session=s1",
    ]);
    // Each session starts with an empty jar.
    assertEquals(target.seen.filter((s) => s.path === "/login").map((s) => s.cookie), [null, null]);
  } finally {
    await target.close();
  }
});

Deno.test("a capture that finds nothing ends its session (counted), never the run; cookies: false sends none", async () => {
  const target = startTarget();
  try {
    const broken: FlowSpec = {
      name: "broken",
      weight: 1,
      steps: [
        loginCapturing("$.missing", "m"),
        { request: requestSpec({ method: "GET", path: "/after/{{ m }}" }) },
      ],
    };
    const plain: FlowSpec = {
      name: "plain",
      weight: 1,
      steps: [{ request: requestSpec({ method: "POST", path: "/login" }) }, flow.steps[4]],
    };
    const r = await countSessions(target.url, 4, [broken, {
      ...plain,
      steps: [plain.steps[0], { request: requestSpec({ method: "GET", path: "/private/y" }) }],
    }], false);
    const [b, p] = r.flows!;
    assertEquals([b.sessions, b.completed, b.failed, b.captureFailed], [2, 0, 2, 2]);
    assertEquals([p.sessions, p.completed, p.failed], [2, 2, 0]);
    assertEquals(target.seen.filter((s) => s.path.startsWith("/after")).length, 0);
    assertEquals(target.seen.filter((s) => s.path === "/private/y").map((s) => s.cookie), [null, null]);
    ok(r.requests === 6, `4 logins and 2 follow-ups: ${r.requests}`);
  } finally {
    await target.close();
  }
});

Deno.test("a Set-Cookie after an interim 103 head is kept (only the head is kept for cookies)", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const cookies: Array<string | null> = [];
  const serve = (async () => {
    const conn = await listener.accept();
    let answered = 0;
    try {
      await eachRequestHead(conn, async (head) => {
        cookies.push(/\r\ncookie: ([^\r]*)/i.exec(head)?.[1] ?? null);
        const write = (text: string) => conn.write(new TextEncoder().encode(text));
        if (answered++ === 0) {
          // The interim head in a read of its own, so the final head arrives after it was seen.
          await write("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n");
          await new Promise((r) => setTimeout(r, 100));
          await write("HTTP/1.1 200 OK\r\nSet-Cookie: k=v\r\nContent-Length: 2\r\n\r\nok");
        } else await write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        return answered < 2;
      });
    } finally {
      conn.close();
    }
  })();
  try {
    const r = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
      model: "count",
      requests: 1,
      connections: 1,
      intervalMs: 100,
      flows: [{
        name: "hints",
        weight: 1,
        steps: [{ request: requestSpec({ method: "GET", path: "/a" }) }, {
          request: requestSpec({ method: "GET", path: "/b" }),
        }],
      }],
    }));
    assertEquals([r.flows![0].completed, cookies], [1, [null, "k=v"]]);
  } finally {
    await serve.catch(() => {});
    listener.close();
  }
});

Deno.test("a check's text is filled from the session's values, as a request's placeholders are", async () => {
  const target = startTarget();
  try {
    const checked: FlowSpec = {
      name: "checked",
      weight: 1,
      steps: [
        loginCapturing("$.token", "token"),
        {
          request: requestSpec({ method: "GET", path: "/echo/{{ token }}" }),
          expect: [{ contains: "at /echo/{{ token }}" }, { contains: "at /echo/{{ token }}-not" }],
        },
        {
          request: requestSpec({ method: "POST", path: "/login" }),
          expect: [{ json: "$.token", equals: "{{ token }}" }, { json: "$.token", equals: "x{{ token }}" }],
        },
      ],
    };
    const [f] = (await countSessions(target.url, 2, [checked])).flows!;
    assertEquals([f.sessions, f.completed], [2, 2]);
    assertEquals(f.steps[1].checks!.map((c) => [c.passed, c.failed]), [[2, 0], [0, 2]]);
    assertEquals(f.steps[2].checks!.map((c) => [c.passed, c.failed]), [[2, 0], [0, 2]]);
  } finally {
    await target.close();
  }
});
