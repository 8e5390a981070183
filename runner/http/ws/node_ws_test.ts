/**
 * The engine's WebSocket client against the npm `ws` package on Node (another project's server), on
 * both transports, through the whole run: text; binary cut into frames by us and reassembled by it;
 * messages it sends in two fragments; its pings (the echo comes only once our pong arrived); its close
 * codes. `ws` is installed into a temporary folder with npm; without node or npm (or offline) the test
 * skips with the reason, except under CI=true where it must run.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { findProgram } from "../../../system/path_lookup.ts";

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const MESSAGES = 30;

const SERVER_JS = `
import { WebSocketServer } from "ws";
const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
wss.on("connection", (socket, req) => {
  const path = req.url;
  socket.on("message", (data, isBinary) => {
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

async function attack(
  path: string,
  transport: "deno" | "epoll" | "io_uring",
  extra: Partial<AttackConfigInput> = {},
) {
  const { dir } = ready as { dir: string };
  const child = new Deno.Command("node", {
    args: [`${dir}/server.mjs`],
    cwd: dir,
    stdout: "piped",
    stderr: "inherit",
  })
    .spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const port = Number((await reader.read()).value?.trim());
    ok(port > 0, "the node server said its port");
    return await runAttack(parseAttackConfig({
      url: `ws://127.0.0.1:${port}${path}`,
      model: "count",
      connections: 2,
      requests: MESSAGES,
      timeoutMs: 3000,
      transport,
      ...extra,
    } as AttackConfigInput));
  } finally {
    child.kill();
    await child.status;
    reader.releaseLock();
    await child.stdout.cancel().catch(() => {});
  }
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
