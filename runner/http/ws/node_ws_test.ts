/**
 * The engine's WebSocket client against the npm `ws` package on Node (another project's server), on both
 * transports, through the whole run: text; binary cut into frames by us and reassembled by it; messages it
 * sends in two fragments; its pings (the echo comes only once our pong arrived); its close codes;
 * permessage-deflate both ways (the server compresses every message it sends, and on `/deflate...` closes
 * with 4000 when the extension was not agreed, 4001 on a message of ours that came uncompressed). `ws` is
 * installed into a temporary folder with npm; without node or npm (or offline) the test skips with the
 * reason, except under CI=true where it must run.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { findProgram } from "../../../system/path_lookup.ts";
import { withChildPort } from "../../../tests/fixtures/child_port.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const MESSAGES = 30;

const SERVER_JS = `
import { WebSocketServer } from "ws";
const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: { threshold: 0 } });
wss.on("connection", (socket, req) => {
  // "/deflate" before a path: the same, with permessage-deflate required both ways.
  const deflate = req.url.startsWith("/deflate");
  const path = deflate ? req.url.slice("/deflate".length) || "/echo" : req.url;
  let compressed = false;
  if (deflate) {
    if (!socket.extensions.includes("permessage-deflate")) socket.close(4000, "no permessage-deflate");
    // The receiver inflates only frames that came with RSV1: note each message that did.
    const receiver = socket._receiver;
    const decompress = receiver.decompress;
    receiver.decompress = function (...args) {
      compressed = true;
      return decompress.apply(this, args);
    };
  }
  socket.on("message", (data, isBinary) => {
    if (deflate && !compressed) socket.close(4001, "uncompressed message");
    compressed = false;
    if (path === "/fragments") {
      const half = Math.floor(data.length / 2);
      socket.send(data.subarray(0, half), { binary: isBinary, fin: false });
      socket.send(data.subarray(half), { binary: isBinary, fin: true });
    } else if (path === "/ping") {
      socket.once("pong", () => socket.send(data, { binary: isBinary }));
      socket.ping("are you there");
    } else {
      socket.send(data, { binary: isBinary });
      if (path === "/close-4002") socket.close(4002, "bye");
    }
  });
});
wss.on("listening", () => console.log(wss.address().port));
`;

/** A folder with `ws` installed and the server script, or the reason there is none. */
async function prepare(): Promise<{ dir: string } | { skip: string }> {
  const node = findProgram("node"), npm = findProgram("npm");
  if (!node || !npm) return { skip: "node or npm not on PATH" };
  const dir = await Deno.makeTempDir({ prefix: "loadlab-node-ws-" });
  const install = await new Deno.Command(npm, {
    args: ["install", "--no-audit", "--no-fund", "--silent", "--prefix", dir, "ws@8"],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!install.success) {
    return { skip: `npm install ws failed: ${new TextDecoder().decode(install.stderr).slice(0, 200)}` };
  }
  await Deno.writeTextFile(`${dir}/server.mjs`, SERVER_JS);
  return { dir };
}

const ready = await prepare();
if ("skip" in ready) {
  if (Deno.env.get("CI") === "true") {
    throw new Error(`the node ws conformance test cannot run: ${ready.skip}`);
  }
  console.log(`node_ws_test skipped: ${ready.skip}`);
}

/** Runs `fn` with the node server up, given its port. */
function withServer<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const { dir } = ready as { dir: string };
  return withChildPort("node", { args: [`${dir}/server.mjs`], cwd: dir, stderr: "inherit" }, fn);
}

function attack(
  path: string,
  transport: "deno" | "epoll" | "io_uring",
  extra: Partial<AttackConfigInput> = {},
) {
  return withServer((port) =>
    runAttack(parseAttackConfig({
      url: `ws://127.0.0.1:${port}${path}`,
      model: "count",
      connections: 2,
      requests: MESSAGES,
      timeoutMs: 3000,
      // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
      // would only add time to each case.
      generatorWarmup: false,
      transport,
      ...extra,
    } as AttackConfigInput))
  );
}

/** Three sessions of a flow (its ws steps) against the node server's origin. */
function flow(transport: "deno" | "epoll" | "io_uring", steps: unknown[]) {
  return withServer((port) =>
    runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${port}/`,
      model: "count",
      connections: 1,
      requests: 3,
      timeoutMs: 3000,
      // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
      // would only add time to each case.
      generatorWarmup: false,
      transport,
      flows: [{ name: "f", steps }],
    } as AttackConfigInput))
  );
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  const test = (name: string, fn: () => Promise<void>) =>
    Deno.test({
      name: `ws client vs the npm ws package on Node: ${name} [${transport}]`,
      ignore: "skip" in ready || (transport === "epoll" && EPOLL_BLOCKER !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      fn,
    });
  test("text echo", async () => {
    const r = await attack("/echo", transport, { ws: { messages: ["héllo"] } } as never);
    assertEquals([r.requests, r.errors, r.ws?.messagesReceived], [MESSAGES, {}, MESSAGES]);
  });
  test("binary cut into 7-byte frames, reassembled by the server", async () => {
    const payload = btoa(String.fromCharCode(...Array.from({ length: 64 }, (_, i) => 255 - i)));
    const r = await attack(
      "/echo",
      transport,
      { ws: { messages: [payload], binary: true, fragmentBytes: 7 } } as never,
    );
    assertEquals([r.requests, r.errors, r.ws?.payloadBytesReceived], [MESSAGES, {}, 64 * MESSAGES]);
  });
  test("answers sent in two fragments are one message each", async () => {
    const r = await attack("/fragments", transport, { ws: { messages: ["fragmented ✓ text"] } } as never);
    assertEquals([r.requests, r.errors, r.ws?.messagesReceived], [MESSAGES, {}, MESSAGES]);
  });
  test("the server's pings get our pongs (its echo waits for them)", async () => {
    const r = await attack("/ping", transport);
    assertEquals([r.requests, r.errors], [MESSAGES, {}]);
  });
  test("permessage-deflate: every message compressed both ways, text and binary cut into frames", async () => {
    const text = await attack(
      "/deflate",
      transport,
      { ws: { messages: ["héllo ".repeat(50)], deflate: true } } as never,
    );
    assertEquals([text.requests, text.errors, text.ws?.messagesReceived, text.ws?.closeCodes], [
      MESSAGES,
      {},
      MESSAGES,
      {},
    ]);
    // Every handshake offered it and got it: the results say the run was compressed throughout.
    const hs = text.ws!.handshakes;
    assertEquals([text.ws?.deflateOffered, text.ws?.deflateAgreed], [hs, hs]);
    const payload = btoa(String.fromCharCode(...Array.from({ length: 600 }, (_, i) => (i * 7) & 0xff)));
    const binary = await attack("/deflate", transport, {
      ws: { messages: [payload], binary: true, fragmentBytes: 7, deflate: true },
    } as never);
    assertEquals([binary.requests, binary.errors, binary.ws?.payloadBytesReceived], [
      MESSAGES,
      {},
      600 * MESSAGES,
    ]);
  });
  test("permessage-deflate: its compressed answers in two fragments are one message each", async () => {
    const r = await attack(
      "/deflate/fragments",
      transport,
      { ws: { messages: ["fragmented ✓ ".repeat(20)], deflate: true } } as never,
    );
    assertEquals([r.requests, r.errors, r.ws?.messagesReceived, r.ws?.closeCodes], [
      MESSAGES,
      {},
      MESSAGES,
      {},
    ]);
  });
  Deno.test({
    name:
      `ws client vs the npm ws package on Node: a flow's connect with deflate compresses its sends [${transport}]`,
    ignore: "skip" in ready || transport === "io_uring" || (transport === "epoll" && EPOLL_BLOCKER !== null),
    async fn() {
      const r = await flow(transport, [
        { ws: { connect: "/deflate", deflate: true } },
        { ws: { send: "flow ✓ ".repeat(30), match: { contains: "flow ✓" } } },
        { ws: { close: 1000 } },
      ]);
      assertEquals([r.errors, r.flows?.[0].completed, r.flows?.[0].failed], [{}, 3, 0]);
      assertEquals(r.ws?.closeCodes, { "1000": 3 });
    },
  });
  test("its close code 4002 counted; a send racing the close counted as ws-closed", async () => {
    const r = await attack("/close-4002", transport, { connections: 1, requests: 6 });
    assertEquals([
      r.requests + (r.errors["ws-closed"] ?? 0),
      Object.keys(r.errors).filter((k) => k !== "ws-closed"),
    ], [
      6,
      [],
    ]);
    ok((r.ws?.closeCodes["4002"] ?? 0) >= 1, JSON.stringify(r.ws));
  });
}

addEventListener("unload", () => {
  if ("dir" in ready) Deno.removeSync(ready.dir, { recursive: true });
});
