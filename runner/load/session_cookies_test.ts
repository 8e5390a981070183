/**
 * The session cookie jar end to end through real worker isolates against a real `Deno.serve` target on
 * 127.0.0.1: cookies are scoped by the request's host (its Host header when a step sets one, as
 * virtual hosts on one address are reached), host-only and Domain cookies follow RFC 6265, and a target
 * answering every step with 2,000 new cookies neither slows the run down nor grows the jar past its
 * per-domain cap.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { FlowSpec } from "../flow_spec.ts";
import { parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import { requestSpec } from "../../tests/fixtures/request_spec.ts";
import { MAX_COOKIES_PER_DOMAIN } from "../http/cookie_jar.ts";
import { sleepUnlessAborted } from "../../system/sleep.ts";
import { eachRequestHead } from "../../tests/fixtures/request_heads.ts";
import { keepLoadWorkers } from "../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

interface Seen {
  host: string | null;
  path: string;
  cookie: string | null;
}

/** A target recording what arrives; `answer` adds the Set-Cookie lines of each response. */
function startTarget(answer: (req: Request, headers: Headers) => void) {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    seen.push({ host: req.headers.get("host"), path: url.pathname, cookie: req.headers.get("cookie") });
    const headers = new Headers();
    answer(req, headers);
    return new Response("ok", { headers });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

const at = (path: string, host?: string) => ({
  request: requestSpec({ path, headers: host === undefined ? [] : [["Host", host]] }),
});

Deno.test("cookies follow the Host header: host-only stays on its host, Domain reaches subdomains", async () => {
  const target = startTarget((req, headers) => {
    if (new URL(req.url).pathname !== "/set") return;
    headers.append("set-cookie", "only=a");
    headers.append("set-cookie", "wide=a; Domain=a.test");
    headers.append("set-cookie", "ip=x; Domain=127.0.0.1");
  });
  try {
    const flow: FlowSpec = {
      name: "hosts",
      weight: 1,
      steps: [
        at("/set", "a.test:8080"),
        at("/b", "b.test"),
        at("/a", "A.test"),
        at("/sub", "api.a.test"),
        at("/bare"),
      ],
    };
    const r = await runAttack(parseAttackConfig({
      url: target.url,
      model: "count",
      requests: 1,
      connections: 1,
      flows: [flow],
    }));
    assertEquals([r.flows![0].completed, r.flows![0].failed], [1, 0]);
    assertEquals(target.seen.map((s) => [s.path, s.cookie]), [
      ["/set", null],
      // Another virtual host on the same address gets nothing.
      ["/b", null],
      // Host names compare case-insensitively; ports do not scope cookies (RFC 6265 8.5).
      ["/a", "only=a; wide=a"],
      // A subdomain gets the Domain cookie only.
      ["/sub", "wide=a"],
      // Without a Host header the URL's host is the request's: none of a.test's cookies, and the
      // Domain=127.0.0.1 cookie was refused (it was set by a.test).
      ["/bare", null],
    ]);
  } finally {
    await target.close();
  }
});

/**
 * A raw HTTP/1.1 server (no header cap of its own, so every Cookie line the jar sends arrives) answering
 * request `/k` with 2,000 cookies named `ck_0` .. `ck_1999`; it records each request's Cookie line.
 */
function startCookieBomb(perAnswer: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const cookies: string[] = [];
  const answer = (step: string) => {
    let head = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n";
    for (let k = 0; k < perAnswer; k++) head += `Set-Cookie: c${step}_${k}=1\r\n`;
    return new TextEncoder().encode(`${head}\r\nok`);
  };
  const serve = (async () => {
    const conn = await listener.accept();
    try {
      await eachRequestHead(conn, async (head) => {
        cookies.push(/\r\ncookie: ([^\r]*)/i.exec(head)?.[1] ?? "");
        await conn.write(answer(head.split(" ")[1].slice(1)));
      });
    } finally {
      conn.close();
    }
  })();
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  return { url, cookies, close: () => (listener.close(), serve.catch(() => {})) };
}

Deno.test("a target sending 2,000 new cookies per answer: 30 steps end quickly, the jar stays at its cap", async () => {
  const perAnswer = 2_000;
  const target = startCookieBomb(perAnswer);
  const steps = Array.from({ length: 30 }, (_, k) => at(`/${k}`));
  // The uncapped jar grew quadratically (11 s for these 30 steps, minutes for longer sessions, a stop
  // ignored meanwhile); the capped one needs well under a second. The bound only ends a hung test.
  const watchdog = new AbortController();
  const timedOut = sleepUnlessAborted(60_000, watchdog.signal).then(() => "timed out" as const);
  try {
    const run = runAttack(parseAttackConfig({
      url: target.url,
      model: "count",
      requests: 1,
      connections: 1,
      flows: [{ name: "bomb", weight: 1, steps }],
    }));
    const r = await Promise.race([run, timedOut]);
    ok(r !== "timed out", `30 steps still running after 60 s (${target.cookies.length} answered)`);
    assertEquals([r.flows![0].completed, r.flows![0].failed, target.cookies.length], [1, 0, 30]);
    const last = target.cookies[29].split("; ");
    // The newest cookies are kept, the oldest evicted: the jar holds its per-domain cap, no more.
    assertEquals(last.length, MAX_COOKIES_PER_DOMAIN);
    assertEquals(last[last.length - 1], `c28_${perAnswer - 1}=1`);
    ok(!last.includes("c0_0=1"));
  } finally {
    watchdog.abort();
    await target.close();
  }
});
