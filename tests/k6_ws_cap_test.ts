/**
 * k6/ws's cap of 16 MiB a message, each way, through `loadlab run` of real k6 scripts against a real local
 * WebSocket server (Deno.upgradeWebSocket): a server message past it closes that socket with an error the
 * script's `on('error')` sees and the run counts as `ws-too-big` (the `ws` package took up to 100 MiB), a
 * message of 2 MiB (past loadlab's flows' 1 MiB) still arrives; a send past it is refused at the script's
 * line and never reaches the server. One iteration each, the process bounded in time.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runK6Text } from "./k6_run.ts";

/** `loadlab run script.js` of `text` against `url`: exit code, output, the run. */
async function runScript(text: string, url: string) {
  const { code, text: output, results } = await runK6Text(text, url);
  return { code, text: output, run: results.runs[0] };
}

const MIB = 1024 * 1024;

/** A WebSocket server: `/big` sends 2 MiB then 16 MiB + 1; `/sink` records each message's size. */
async function withWsServer(fn: (url: string, received: number[]) => Promise<void>): Promise<void> {
  const received: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.headers.get("upgrade") !== "websocket") return new Response("ok");
    const { socket, response } = Deno.upgradeWebSocket(req);
    const path = new URL(req.url).pathname;
    socket.onopen = () => {
      if (path !== "/big") return;
      socket.send("a".repeat(2 * MIB));
      socket.send("b".repeat(16 * MIB + 1));
    };
    socket.onmessage = (e) => received.push(typeof e.data === "string" ? e.data.length : e.data.byteLength);
    socket.onerror = () => {};
    return response;
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, received);
  } finally {
    await server.shutdown();
  }
}

Deno.test("k6/ws: a server message past 16 MiB closes the socket, on('error') sees ws-too-big, the run counts it", () =>
  withWsServer(async (url) => {
    const { code, text, run } = await runScript(
      `import ws from "k6/ws";
import { check } from "k6";
export const options = { iterations: 1 };
export default function () {
  const sizes = [];
  let seen = "";
  let closed = 0;
  ws.connect("ws://app.test/big", function (socket) {
    socket.on("message", (data) => sizes.push(data.length));
    socket.on("error", (e) => { seen = e.error(); });
    socket.on("close", (code) => { closed = code; });
    socket.setTimeout(() => socket.close(), 20000);
  });
  console.log("seen: " + seen);
  check(sizes, { "2 MiB arrived": (s) => s.length === 1 && s[0] === ${2 * MIB} });
  check(seen, { "too big seen": (t) => t.startsWith("ws-too-big: ") });
  check(closed, { "closed": (c) => c > 0 });
}
`,
      url,
    );
    // Answered (a message came), so not "no response at all": flagged for the socket's error, named.
    assertEquals(code, 0, text);
    ok(!text.includes("no response at all"), text);
    ok(/\[errors 100% \(ws-too-big 1\)\]/.test(text), text);
    ok(
      text.includes("seen: ws-too-big: a message from ws://app.test/big is past k6/ws's cap of 16 MiB"),
      text,
    );
    assertEquals(run.errors["ws-too-big"], 1, JSON.stringify(run.errors));
    const checks = run.flows[0].steps.flatMap((s: { checks?: { name: string; failed: number }[] }) =>
      s.checks ?? []
    );
    assertEquals(checks.map((c: { name: string; failed: number }) => [c.name, c.failed]).sort(), [
      ["2 MiB arrived", 0],
      ["closed", 0],
      ["too big seen", 0],
    ]);
    assertEquals([run.ws.messagesReceived, run.ws.closesSent], [1, 1], JSON.stringify(run.ws));
    // The socket's error is no HTTP request: with none sent, k6's summary prints no http_reqs at all.
    ok(!/http_reqs/.test(text), text);
  }));

Deno.test("k6/ws: a send past 16 MiB is refused at the script's line, never sent", () =>
  withWsServer(async (url, received) => {
    const { text, run } = await runScript(
      `import ws from "k6/ws";
export const options = { iterations: 1 };
export default function () {
  ws.connect("ws://app.test/sink", function (socket) {
    socket.on("open", () => {
      socket.send("small");
      socket.send("x".repeat(${16 * MIB + 1}));
    });
    socket.setTimeout(() => socket.close(), 20000);
  });
}
`,
      url,
    );
    const messages = JSON.stringify(run.errorMessages ?? run.errors);
    ok(
      /socket\.send: a message of 16777217 bytes is past k6\/ws's cap of 16 MiB a message; it is not sent \(script\.js:7\)/
        .test(text + messages),
      text + messages,
    );
    assertEquals(run.flows[0].failed, 1, JSON.stringify(run.flows[0]));
    assertEquals(received, [5]);
  }));
