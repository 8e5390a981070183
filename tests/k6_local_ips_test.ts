/**
 * @module
 * k6's `--local-ips` and `K6_LOCAL_IPS` under `loadlab run`: a k6 script's VUs send from the addresses given
 * (a range or a CIDR), seen by a server that records each request's peer address; an address this host
 * cannot send from, or text that is none, is refused before the load, naming it. 4 VUs, 8 iterations a run.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runK6Text } from "./k6_run.ts";

/** Runs `fn` with a server that records the peer address of every request. */
async function withPeers(fn: (url: string, peers: Set<string>) => Promise<void>) {
  const peers = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (_req, info) => {
    peers.add((info.remoteAddr as Deno.NetAddr).hostname);
    return new Response("ok");
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, peers);
  } finally {
    await server.shutdown();
  }
}

const script = (url: string) =>
  `import http from "k6/http";
export const options = { vus: 4, iterations: 8, thresholds: { http_req_failed: ["rate==0"] } };
export default function () { http.get("${url}/"); }
`;

Deno.test({
  name: "--local-ips and K6_LOCAL_IPS: the VUs send from those addresses; one this host lacks is refused",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    withPeers(async (url, peers) => {
      const run = await runK6Text(script(url), null, ["--local-ips", "127.0.0.2-127.0.0.3", "-q"]);
      assertEquals(run.code, 0, run.text);
      assertEquals([...peers].sort(), ["127.0.0.2", "127.0.0.3"], run.text);
      assertEquals(run.results.runs[0].config.sourceAddresses, ["127.0.0.2", "127.0.0.3"]);
      peers.clear();
      // A /31 is both its addresses, as k6 takes a CIDR.
      const env = await runK6Text(script(url), null, ["-q"], { env: { K6_LOCAL_IPS: "127.0.0.2/31" } });
      assertEquals(env.code, 0, env.text);
      assertEquals([...peers].sort(), ["127.0.0.2", "127.0.0.3"], env.text);
      peers.clear();
      const foreign = await runK6Text(script(url), null, ["--local-ips", "127.0.0.2,192.0.2.1"]);
      ok(foreign.code !== 0 && foreign.results === null, foreign.text);
      ok(
        foreign.stderr.includes('--local-ips="127.0.0.2,192.0.2.1": cannot send from 192.0.2.1'),
        foreign.text,
      );
      const bad = await runK6Text(script(url), null, [], { env: { K6_LOCAL_IPS: "127.0.0.x" } });
      assertEquals([bad.code, bad.results], [104, null], bad.text);
      ok(bad.stderr.includes('K6_LOCAL_IPS="127.0.0.x": "127.0.0.x" is not an IP address'), bad.text);
      assertEquals(peers.size, 0);
    }),
});
