/**
 * Unit tests of the balancing policy, and the balancer in process against real sockets: per-request
 * spreading over one keep-alive client connection, upstream connections reused, bodies intact (a large
 * JSON upload, a chunked upload, a chunked answer), a pipelined client, and 502 when an instance is down.
 * The framings a Deno.serve app never sends are in balancer_framing_test.ts. No speed is asserted.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { pickInstance, serveBalancer } from "./balancer.ts";
import { countingUpstream, RawClient } from "../../tests/fixtures/balancer_testing.ts";

Deno.test("round-robin cycles through the instances", () => {
  assertEquals([0, 1, 2, 3, 4].map((n) => pickInstance("round-robin", [5, 0, 0], n)), [0, 1, 2, 0, 1]);
});

Deno.test("least-connections picks the least busy instance, ties in rotation", () => {
  assertEquals(pickInstance("least-connections", [3, 1, 2], 0), 1);
  assertEquals(pickInstance("least-connections", [1, 1, 1], 0), 0);
  assertEquals(pickInstance("least-connections", [1, 1, 1], 1), 1);
  assertEquals(pickInstance("least-connections", [0, 4, 0], 1), 2);
});

/** A body of `sizeBytes` that changes byte by byte, so a lost, doubled or reordered piece shows. */
function pattern(sizeBytes: number): string {
  let s = "";
  for (let i = 0; s.length < sizeBytes; i++) s += `${i},`;
  return s.slice(0, sizeBytes);
}

/**
 * An instance named `name`: `/echo` answers the request body, `/stream` a chunked answer, else its name and
 * path.
 */
function instance(name: string) {
  return countingUpstream(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/echo") return new Response(await req.text(), { headers: { "x-instance": name } });
    if (path === "/stream") {
      const pieces = pattern(300_000).match(/.{1,1000}/g)!;
      const body = ReadableStream.from(pieces).pipeThrough(new TextEncoderStream());
      return new Response(body, { headers: { "x-instance": name } });
    }
    return new Response(`${name} ${path}`);
  });
}

Deno.test("spreads per request over one keep-alive client connection and reuses upstream connections", async () => {
  const a = instance("A"), b = instance("B");
  const server = serveBalancer({
    hostname: "127.0.0.1",
    port: 0,
    upstreams: [a.url, b.url],
    mode: "round-robin",
  });
  const client = await RawClient.open(server.addr.port);
  try {
    const bodies = [];
    for (let i = 0; i < 20; i++) {
      await client.send(`GET /n${i} HTTP/1.1\r\nHost: test\r\n\r\n`);
      bodies.push((await client.answer()).body);
    }
    assertEquals(bodies, bodies.map((_, i) => `${i % 2 ? "B" : "A"} /n${i}`));
    assertEquals(server.balancer.sent, [10, 10]);
    assertEquals([a.accepted(), b.accepted()], [1, 1], "one request at a time needs one connection each");
    // 8 connections at once, 25 requests each: at most one upstream connection per request in flight.
    const clients = await Promise.all([...Array(8)].map(() => RawClient.open(server.addr.port)));
    await Promise.all(clients.map(async (c, k) => {
      for (let i = 0; i < 25; i++) {
        await c.send(`GET /c${k} HTTP/1.1\r\nHost: test\r\n\r\n`);
        assert((await c.answer()).body.endsWith(`/c${k}`));
      }
      c.close();
    }));
    assertEquals(server.balancer.sent, [110, 110]);
    assert(
      a.accepted() + b.accepted() <= 2 + 8,
      `${a.accepted() + b.accepted()} connections for 220 requests`,
    );
    assertEquals(server.balancer.opened(), [a.accepted(), b.accepted()]);
  } finally {
    client.close();
    await server.shutdown();
    await Promise.all([a.close(), b.close()]);
  }
});

Deno.test("bodies pass intact: a large JSON upload, a chunked upload, a chunked answer", async () => {
  const a = instance("A"), b = instance("B");
  const server = serveBalancer({
    hostname: "127.0.0.1",
    port: 0,
    upstreams: [a.url, b.url],
    mode: "round-robin",
  });
  const http = Deno.createHttpClient({ poolMaxIdlePerHost: 1 });
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    const json = JSON.stringify({ items: pattern(2_000_000).split(",") });
    for (const body of [json, ReadableStream.from([json.slice(0, 100_000), json.slice(100_000)])]) {
      const stream = body instanceof ReadableStream ? body.pipeThrough(new TextEncoderStream()) : body;
      const res = await fetch(`${url}/echo`, { method: "POST", body: stream, client: http });
      assertEquals(await res.text(), json);
    }
    const res = await fetch(`${url}/stream`, { client: http });
    assertEquals(await res.text(), pattern(300_000));
    const raw = await RawClient.open(server.addr.port);
    await raw.send("GET /stream HTTP/1.1\r\nHost: test\r\n\r\n");
    const answer = await raw.answer();
    raw.close();
    assertEquals([answer.headers["transfer-encoding"], answer.body.length], ["chunked", 300_000]);
    assertEquals(server.balancer.sent, [2, 2]);
  } finally {
    http.close();
    await server.shutdown();
    await Promise.all([a.close(), b.close()]);
  }
});

Deno.test("a pipelined client gets its answers in order", async () => {
  const a = instance("A"), b = instance("B");
  const server = serveBalancer({
    hostname: "127.0.0.1",
    port: 0,
    upstreams: [a.url, b.url],
    mode: "least-connections",
  });
  const client = await RawClient.open(server.addr.port);
  try {
    const post = `POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello`;
    await client.send(`GET /1 HTTP/1.1\r\nHost: t\r\n\r\n${post}GET /3 HTTP/1.1\r\nHost: t\r\n\r\n`);
    const answers = [await client.answer(), await client.answer(), await client.answer()];
    assertEquals(answers.map((r) => r.body), ["A /1", "hello", "A /3"]);
    assertEquals(server.balancer.sent, [2, 1]);
  } finally {
    client.close();
    await server.shutdown();
    await Promise.all([a.close(), b.close()]);
  }
});

Deno.test("an instance that is down gets 502 with the reason; the others keep answering", async () => {
  const a = instance("A");
  const gone = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const downUrl = `http://127.0.0.1:${gone.addr.port}`;
  gone.close();
  const server = serveBalancer({
    hostname: "127.0.0.1",
    port: 0,
    upstreams: [a.url, downUrl],
    mode: "round-robin",
  });
  const client = await RawClient.open(server.addr.port);
  try {
    const answers = [];
    for (let i = 0; i < 4; i++) {
      await client.send("GET /x HTTP/1.1\r\nHost: t\r\n\r\n");
      answers.push(await client.answer());
    }
    assertEquals(answers.map((r) => r.status), [200, 502, 200, 502]);
    assert(JSON.parse(answers[1].body).error.startsWith(`upstream ${downUrl} failed:`), answers[1].body);
    assertEquals(server.balancer.sent, [2, 2]);
  } finally {
    client.close();
    await server.shutdown();
    await a.close();
  }
});

/** Whether the balancer closes a connection that sent `opening` (maybe nothing) within `boundMs`. */
async function closedWithin(port: number, opening: string, boundMs: number): Promise<boolean> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    if (opening) await conn.write(new TextEncoder().encode(opening));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<"open">((resolve) => timer = setTimeout(() => resolve("open"), boundMs));
    const read = conn.read(new Uint8Array(1024)).catch(() => null);
    const result = await Promise.race([read, bound]);
    clearTimeout(timer);
    return result === null;
  } finally {
    conn.close();
  }
}

Deno.test("a client that never completes its first head (nothing, a partial head, a partial h2 preface) is closed after the head timeout", async () => {
  const a = instance("A");
  const server = serveBalancer({
    hostname: "127.0.0.1",
    port: 0,
    upstreams: [a.url],
    mode: "round-robin",
    headTimeoutMs: 200,
  });
  const port = server.addr.port;
  try {
    assert(await closedWithin(port, "", 5_000), "silent client still held");
    assert(await closedWithin(port, "GET / HTTP/1.1\r\nHost: t\r\n", 5_000), "partial head still held");
    assert(await closedWithin(port, "PRI * HTTP/2.0\r\n", 5_000), "partial h2 preface still held");
    // A client that keeps to the time still gets its answers, and an idle keep-alive client between
    // requests is not a slow head.
    const client = await RawClient.open(port);
    try {
      await client.send("GET /one HTTP/1.1\r\nHost: t\r\n\r\n");
      assertEquals((await client.answer()).body, "A /one");
      await new Promise((resolve) => setTimeout(resolve, 400));
      await client.send("GET /two HTTP/1.1\r\nHost: t\r\n\r\n");
      assertEquals((await client.answer()).body, "A /two");
    } finally {
      client.close();
    }
  } finally {
    await server.shutdown();
    await a.close();
  }
});
