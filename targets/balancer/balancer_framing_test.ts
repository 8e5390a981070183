/**
 * The balancer against an upstream scripted byte by byte, for the framings a Deno.serve app never sends:
 * an answer to HEAD with a Content-Length and no body, 204 and 304 (with a length, no body), a chunked
 * answer with trailers in small pieces, a body that runs until the upstream closes, `Connection: close`, a
 * `101 Switching Protocols` tunnel, `100 Continue` before the answer, and an idle pooled connection the
 * upstream closed meanwhile. After each, the same client connection must go on with the next request
 * (unless the answer closed it).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { serveBalancer } from "./balancer.ts";
import { RawClient, type Script, scriptedUpstream } from "../../tests/fixtures/balancer_testing.ts";

const ok = (body: string, extra = "") =>
  `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n${extra}\r\n${body}`;

const SCRIPTS: Record<string, Script> = {
  "/head": { pieces: ["HTTP/1.1 200 OK\r\ncontent-length: 50\r\n\r\n"] },
  "/204": { pieces: ["HTTP/1.1 204 No Content\r\nx-a: 1\r\n\r\n"] },
  "/304": { pieces: ['HTTP/1.1 304 Not Modified\r\ncontent-length: 40\r\netag: "v1"\r\n\r\n'] },
  "/chunked": {
    pieces: [
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhel",
      "lo\r\n",
      "6;x=y\r\n world\r\n0\r\nx-t",
      ": 1\r\n\r\n",
    ],
    pauseMs: 5,
  },
  "/continue": { pieces: ["HTTP/1.1 100 Continue\r\n\r\n", ok("after 100")] },
  "/until-close": {
    pieces: ["HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nstreamed ", "until close"],
    close: true,
  },
  "/close": { pieces: [ok("bye", "connection: close\r\n")], close: true },
  "/stale": { pieces: [ok("served")], close: true }, // closes without saying so, like an idle timeout
  "/upgrade": {
    pieces: [
      "HTTP/1.1 101 Switching Protocols\r\nupgrade: test\r\nconnection: upgrade\r\n\r\n",
      "tunneled bytes",
    ],
    close: true,
  },
};

function upstream() {
  return scriptedUpstream((method, path) => SCRIPTS[path] ?? { pieces: [ok(`${method} ${path}`)] });
}

async function withBalancer(fn: (port: number, accepted: () => number) => Promise<void>): Promise<void> {
  const up = upstream();
  const server = serveBalancer({ hostname: "127.0.0.1", port: 0, upstreams: [up.url], mode: "round-robin" });
  try {
    await fn(server.addr.port, up.accepted);
  } finally {
    await server.shutdown();
    await up.close();
  }
}

const get = (path: string, method = "GET") => `${method} ${path} HTTP/1.1\r\nHost: t\r\n\r\n`;

Deno.test("no body after HEAD, 204, 304; chunked with trailers and 100 Continue pass; the connection goes on", async () => {
  await withBalancer(async (port, accepted) => {
    const client = await RawClient.open(port);
    try {
      const next = async () => (await client.send(get("/next")), (await client.answer()).body);
      await client.send(get("/head", "HEAD"));
      assertEquals((await client.answer(true)).headers["content-length"], "50");
      assertEquals(await next(), "GET /next");
      for (const status of [204, 304]) {
        await client.send(get(`/${status}`));
        assertEquals((await client.answer()).status, status);
        assertEquals(await next(), "GET /next");
      }
      await client.send(get("/chunked"));
      assertEquals((await client.answer()).body, "hello world");
      await client.send(get("/continue"));
      assertEquals((await client.answer()).status, 100);
      assertEquals((await client.answer()).body, "after 100");
      assertEquals(await next(), "GET /next");
      assertEquals(accepted(), 1);
    } finally {
      client.close();
    }
  });
});

Deno.test("a body until close, Connection: close and a 101 tunnel end the client connection too", async () => {
  await withBalancer(async (port, accepted) => {
    const cases = [["/until-close", "streamed until close"], ["/close", "bye"], ["/upgrade", ""]];
    for (const [path, body] of cases) {
      const client = await RawClient.open(port);
      try {
        await client.send(get(path));
        assertEquals((await client.answer()).body, body);
        assertEquals(
          await client.rest(),
          path === "/upgrade" ? "tunneled bytes" : "",
          "closed after the answer",
        );
      } finally {
        client.close();
      }
    }
    assertEquals(accepted(), 3, "a connection the upstream closed is not reused");
  });
});

Deno.test("an idle pooled connection the upstream closed is replaced, the request sent again", async () => {
  await withBalancer(async (port, accepted) => {
    const client = await RawClient.open(port);
    try {
      for (let i = 0; i < 3; i++) {
        await client.send(get("/stale"));
        assertEquals((await client.answer()).body, "served");
        await new Promise((r) => setTimeout(r, 30)); // the upstream's close reaches the pooled socket
      }
      assertEquals(accepted(), 3);
    } finally {
      client.close();
    }
  });
});

Deno.test("malformed or ambiguous requests get 400 and are not forwarded", async () => {
  await withBalancer(async (port, accepted) => {
    const client = await RawClient.open(port);
    try {
      await client.send(
        "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      );
      assertEquals((await client.answer()).status, 400);
      assertEquals(accepted(), 0);
    } finally {
      client.close();
    }
  });
});
