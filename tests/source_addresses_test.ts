/**
 * @module
 * Connections spread over several local source addresses, past the ports one address has: a real
 * `attack` and a real `run` of an experiment file against a server that counts the peer address of every
 * request. Each of 127.0.0.1-127.0.0.4 (all this host's loopback on Linux) must carry requests, the
 * connections shared evenly; an address this host cannot send from is refused before the load (exit 2).
 * Bounded: 8 connections for 500 ms.
 */
import { loadlabInProcess } from "./in_process.ts";
import assert from "node:assert/strict";
import { withTempDir } from "./helpers.ts";

/** Runs `fn` with a server that counts requests by the peer's address, and those counts. */
async function withPeerCounter(fn: (url: string, peers: Map<string, number>) => Promise<void>) {
  const peers = new Map<string, number>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (_req, info) => {
    const ip = (info.remoteAddr as Deno.NetAddr).hostname;
    peers.set(ip, (peers.get(ip) ?? 0) + 1);
    return new Response("ok");
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, peers);
  } finally {
    await server.shutdown();
  }
}

const FOUR = ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"];

Deno.test({
  name: "attack --source-addresses: every address carries connections; one this host lacks is refused",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await withPeerCounter(async (url, peers) => {
      const args = ["attack", `${url}/`, "-c", "8", "-d", "500ms", "--no-live", "-q"];
      const r = await loadlabInProcess([
        ...args,
        "--source-addresses",
        "127.0.0.1-127.0.0.4",
        "--transport",
        "epoll",
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual([...peers.keys()].sort(), FOUR, JSON.stringify([...peers]));
      const refused = await loadlabInProcess([...args, "--source-addresses", "127.0.0.1,192.0.2.1"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /--source-addresses: cannot send from 192\.0\.2\.1/);
    });
  },
});

Deno.test({
  name: "an experiment's sourceAddresses spreads its connections over every address",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await withPeerCounter((url, peers) =>
      withTempDir(async (dir) => {
        const load = "{ model: connections, connections: 8, duration: 500ms, sourceAddresses: ";
        await Deno.writeTextFile(
          `${dir}/e.yaml`,
          `name: spread\ntargets:\n  t: { url: "${url}" }\nloads:\n  l: ${load}[127.0.0.1-127.0.0.2, 127.0.0.3, 127.0.0.4] }\n`,
        );
        const r = await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`]);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual([...peers.keys()].sort(), FOUR, JSON.stringify([...peers]));
        const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
        assert.deepEqual(results.runs[0].config.sourceAddresses, FOUR);
      })
    );
  },
});
