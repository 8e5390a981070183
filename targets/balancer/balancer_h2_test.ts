/**
 * The balancer with HTTP/2 clients: an h2c connection (prior knowledge) is relayed whole to one instance,
 * connections spread by the balancing mode, many streams on one connection all reach that instance, an
 * HTTP/1.1 request still goes per request on the same listener, and an instance that is down closes the
 * h2 client's connection (counted as a bad gateway) instead of hanging it.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { serveBalancer } from "./balancer.ts";
import { countingUpstream, RawClient } from "../../tests/fixtures/balancer_testing.ts";
import { H2RawClient, H2StreamError } from "../../tests/fixtures/h2_raw_client.ts";

function instance(name: string) {
  return countingUpstream((req) => new Response(`${name} ${new URL(req.url).pathname}`));
}

Deno.test("h2c connections are relayed per connection, spread round-robin, streams kept on their instance", async () => {
  const a = instance("A"), b = instance("B");
  const server = serveBalancer({
    hostname: "127.0.0.1",
    port: 0,
    upstreams: [a.url, b.url],
    mode: "round-robin",
  });
  const clients: H2RawClient[] = [];
  try {
    for (let c = 0; c < 4; c++) clients.push(await H2RawClient.open(server.addr.port));
    const answers = await Promise.all(
      clients.map((c, k) => Promise.all(c.getAll(["/x", "/y", "/z"].map((p) => p + k)))),
    );
    answers.forEach((streams, k) => {
      const name = k % 2 ? "B" : "A";
      assertEquals(
        streams.map((s) => [s.status, s.body]),
        ["x", "y", "z"].map((p) => [200, `${name} /${p}${k}`]),
      );
    });
    assertEquals(server.balancer.h2Connections, [2, 2]);
    assertEquals([a.accepted(), b.accepted()], [2, 2]);
    assertEquals(server.balancer.sent, [0, 0], "no HTTP/1.1 request was forwarded");
    // HTTP/1.1 on the same listener is still balanced per request.
    const http1 = await RawClient.open(server.addr.port);
    await http1.send("GET /one HTTP/1.1\r\nHost: t\r\n\r\n");
    assert((await http1.answer()).body.endsWith("/one"));
    http1.close();
    assertEquals(server.balancer.sent.reduce((x, y) => x + y), 1);
  } finally {
    for (const c of clients) c.close();
    await Promise.all(clients.map((c) => c.loop));
    await server.shutdown();
    await Promise.all([a.close(), b.close()]);
  }
});

Deno.test("an instance that is down closes the h2 connection and counts a bad gateway", async () => {
  const gone = instance("gone");
  await gone.close();
  const server = serveBalancer({
    hostname: "127.0.0.1",
    port: 0,
    upstreams: [gone.url],
    mode: "round-robin",
  });
  const client = await H2RawClient.open(server.addr.port);
  try {
    await rejects(client.get("/"), (err: unknown) => err instanceof H2StreamError && err.how === "closed");
    assertEquals(server.balancer.badGateways(), [1]);
  } finally {
    client.close();
    await client.loop;
    await server.shutdown();
  }
});
