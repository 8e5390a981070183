/**
 * A flow's ws steps through the whole run (workers, recorder, results) against Deno's own WebSocket
 * server, on both transports: over TLS (an https: target's WebSocket is wss:), a greeting that waits in
 * the queue until a step asks, messages passed over counted as unsolicited, the server closing while a
 * step waits (`ws-closed`, the session failed, its close code counted), the session's cookies and filled
 * headers on the handshake, and a header value that would split the handshake refused (`bad-value`). Bounded
 * counts (count model), exact results.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import { epollBlocker } from "../http/transport/choice.ts";
import { selfSignedPair } from "../../targets/tls_cert.ts";
import { keepLoadWorkers } from "../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const PAIR = await selfSignedPair();
const CA_FILE = await Deno.makeTempFile({ prefix: "loadlab-wsflow-ca-", suffix: ".pem" });
await Deno.writeTextFile(CA_FILE, PAIR.caPem);
addEventListener("unload", () => Deno.removeSync(CA_FILE));

/**
 * `/greet`: says "welcome" on open, then echoes; `/close`: echoes once, then closes with 4001; `/token`:
 * the Authorization and Cookie headers it was opened with come back as the first message, a CR LF line
 * after them; `/big`: says 600 KiB of "a" on open, then echoes; `/set` (plain HTTP) sets a cookie. The
 * largest message any socket received is kept in `largestReceived`.
 */
let largestReceived = 0;

function server(tls: boolean): { url: string; server: Deno.HttpServer } {
  const pem = tls ? { cert: PAIR.certPem, key: PAIR.keyPem } : {};
  const s = Deno.serve({ ...pem, hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/set") return new Response("ok", { headers: { "set-cookie": "s=1; Path=/" } });
    const auth = `${req.headers.get("authorization")} cookie ${req.headers.get("cookie")}`;
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => {
      if (path === "/greet") socket.send("welcome");
      // A value from outside with a line break in it, as a hostile or broken server may send.
      if (path === "/token") socket.send(`auth ${auth}\r\nInjected: 1`);
      if (path === "/big") socket.send("a".repeat(600 * 1024));
    };
    socket.onmessage = (e) => {
      largestReceived = Math.max(largestReceived, typeof e.data === "string" ? e.data.length : 0);
      socket.send(e.data);
      if (path === "/close") socket.close(4001, "done");
    };
    return response;
  });
  return { url: `${tls ? "https" : "http"}://127.0.0.1:${s.addr.port}/`, server: s };
}

async function run(transport: "deno" | "epoll", steps: unknown[], tls = false) {
  const { url, server: s } = server(tls);
  try {
    return await runAttack(parseAttackConfig({
      url,
      model: "count",
      connections: 1,
      requests: 3,
      timeoutMs: 3000,
      transport,
      flows: [{ name: "f", steps }],
      ...(tls ? { tls: { caFile: CA_FILE } } : {}),
    } as AttackConfigInput));
  } finally {
    await s.shutdown();
  }
}

for (const transport of ["deno", "epoll"] as const) {
  const ignore = transport === "epoll" && EPOLL_BLOCKER !== null;

  Deno.test({
    name: `${transport}: over TLS, a greeting waits in the queue; what a step passes over is unsolicited`,
    ignore,
    async fn() {
      const r = await run(transport, [
        { ws: { connect: "/greet" } },
        { ws: { send: "one" } },
        { ws: { send: "two", match: { contains: "two" }, name: "two" } },
        { ws: { close: 1000 } },
      ], true);
      assertEquals(r.errors, {});
      assertEquals([r.flows?.[0].completed, r.flows?.[0].failed], [3, 0]);
      const ws = r.ws!;
      // Each session: "welcome" and "one" passed over, "two" answered.
      assertEquals([ws.handshakes, ws.messagesSent, ws.messagesReceived, ws.unsolicited], [3, 6, 9, 6]);
      assertEquals([ws.closesSent, ws.closeCodes], [3, { "1000": 3 }]);
      assertEquals(r.endpoints?.map((e) => [e.name, e.requests]), [["two", 3]]);
    },
  });

  Deno.test({
    name:
      `${transport}: the server closes while a step waits: ws-closed under its endpoint, the session failed`,
    ignore,
    async fn() {
      const r = await run(transport, [
        { ws: { connect: "/close" } },
        { ws: { send: "a", match: { contains: "never" }, name: "wait" } },
      ]);
      assertEquals(r.errors, { "ws-closed": 3 });
      assertEquals([r.flows?.[0].completed, r.flows?.[0].failed], [0, 3]);
      assertEquals(r.ws?.closeCodes, { "4001": 3 });
      assertEquals(r.endpoints?.map((e) => [e.name, e.errors]), [["wait", { "ws-closed": 3 }]]);
    },
  });

  Deno.test({
    name:
      `${transport}: the handshake carries the session's cookies and filled headers; a value with CR LF is never sent`,
    ignore,
    async fn() {
      const r = await run(transport, [
        { request: { path: "/set" } },
        { ws: { connect: "/token", headers: { authorization: "Bearer t-1" } } },
        {
          ws: { wait: {} },
          expect: [{ contains: "auth Bearer t-1 cookie s=1\r\n" }],
          capture: [{ regexp: "auth ([\\s\\S]*)", as: "line" }],
        },
        { ws: { close: 1000 } },
        { ws: { connect: "/token", headers: { authorization: "{{ line }}" } } },
      ]);
      assertEquals(r.flows?.[0].steps[2].checks?.map((c) => [c.passed, c.failed]), [[3, 0]]);
      assertEquals(r.errors, { "bad-value": 3 });
      assertEquals([r.flows?.[0].failed, r.ws?.handshakes], [3, 3]);
    },
  });

  Deno.test({
    name: `${transport}: a send its captures fill past the message cap is refused (ws-too-big), never sent`,
    ignore,
    async fn() {
      // Two of a 600 KiB capture sent 1.2 MB; three hundred sent 276 MB a session (1.8 GB for two).
      largestReceived = 0;
      const r = await run(transport, [
        { ws: { connect: "/big" } },
        { ws: { wait: {} }, capture: [{ regexp: "^(a+)$", as: "c" }] },
        { ws: { send: "{{ c }}{{ c }}", match: { contains: "a" }, name: "twice" } },
      ]);
      assertEquals(r.errors, { "ws-too-big": 3 });
      assertEquals(Object.keys(r.errorMessages?.["ws-too-big"] ?? {}), [
        "a message to send over the 1048576-byte cap (its placeholders filled it to 1228800 bytes)",
      ]);
      assertEquals([r.flows?.[0].completed, r.flows?.[0].failed, largestReceived], [0, 3, 0]);
    },
  });

  Deno.test({
    name:
      `${transport}: captures past the session's 16 MiB end it (body-too-large), the run's other numbers kept`,
    ignore,
    async fn() {
      // Each step echoes a 600 KiB capture back and captures it under a name of its own: 3,000 such
      // captures of a 1 MB message ended a worker out of memory.
      const steps: unknown[] = [
        { ws: { connect: "/big" } },
        { ws: { wait: {} }, capture: [{ regexp: "^(a+)$", as: "c0" }] },
      ];
      for (let i = 1; i < 32; i++) {
        steps.push({
          ws: { send: "{{ c0 }}", match: {}, name: "echo" },
          capture: [{ regexp: "^(a+)$", as: `c${i}` }],
        });
      }
      const r = await run(transport, steps);
      assertEquals(r.errors, { "body-too-large": 3 });
      const [message] = Object.keys(r.errorMessages?.["body-too-large"] ?? {});
      assertEquals(
        message.replace(/\d{8}/g, "N"),
        'capture "c27" would keep the session\'s captures at N ' +
          "bytes, past the N a session keeps: capture a part (a regexp's group, a JSON field)",
      );
      assertEquals([r.flows?.[0].completed, r.flows?.[0].failed, r.flows?.[0].captureFailed], [0, 3, 3]);
      assertEquals(r.endpoints?.map((e) => [e.name, e.requests, e.errors]), [
        ["WS WAIT /big", 3, {}],
        ["echo", 3 * 27, { "body-too-large": 3 }],
      ]);
    },
  });
}
