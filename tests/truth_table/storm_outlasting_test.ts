/**
 * @module
 * Truth table, a WebSocket storm whose connections outlast its window: each connection sends its N
 * messages one after another to an echo that answers in 20 ms, so 40 of them take most of a second and
 * a 1.5 s run measures the storm's ramp, half of its messages answered after the window. Every connection
 * opened and sent its N, so neither "opened short" nor "sent short" holds: the verdict must still say the
 * rate is not the storm's. A storm of 2 messages a connection on the same echo keeps up.
 */
import assert from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";
import type { RunResult } from "../../results/mod.ts";

async function storm(url: string, perConnection: number): Promise<{ run: RunResult; stdout: string }> {
  let out: { run: RunResult; stdout: string } | null = null;
  await withTempDir(async (dir) => {
    const r = await runLoadlab([
      "attack",
      url,
      "--ws-per-connection",
      `${perConnection}`,
      "-R",
      "20",
      "-d",
      "1.5s",
      "--no-live",
      "-o",
      `${dir}/r.json`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    out = { run: JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).runs[0], stdout: r.stdout };
  });
  return out!;
}

Deno.test("a storm whose connections outlast the window reads 'short storm', one that keeps up does not", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onmessage = (e) =>
      setTimeout(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(e.data);
      }, 20);
    return response;
  });
  const url = `ws://127.0.0.1:${server.addr.port}/`;
  try {
    const long = await storm(url, 40);
    assert.ok(
      (long.run.drained ?? 0) > long.run.requests * 0.1,
      "most of a connection's messages outlast the run",
    );
    assert.match(
      long.stdout,
      /Verdict: [^\n]*short storm: [\d,]+ of [\d,]+ messages after the 1\.50 s window/,
    );

    const short = await storm(url, 2);
    assert.doesNotMatch(short.stdout, /messages after the/);
    // A machine whose other processes took a core may make the generator late: that flag, not this one.
    assert.match(short.stdout, /Verdict: (ok|generator-bound[^\n]*)\n/);
  } finally {
    await server.shutdown();
  }
});
