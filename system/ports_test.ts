import assert from "node:assert/strict";
import { freePort, listeningInodes, listeningPid, rangeOutside, waitForPort } from "./ports.ts";

Deno.test("waitForPort: true once a listener accepts, false at the deadline or when the caller gives up", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: freePort() });
  const port = (listener.addr as Deno.NetAddr).port;
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })();
  try {
    assert.equal(await waitForPort("127.0.0.1", port, 5000), true);
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
  const closed = freePort();
  assert.equal(await waitForPort("127.0.0.1", closed, 120), false);
  const started = Date.now();
  assert.equal(await waitForPort("127.0.0.1", closed, 60_000, () => true), false);
  assert.ok(Date.now() - started < 30_000, "giving up does not wait for the deadline");
});

Deno.test("freePort: a bindable port outside the kernel's ephemeral range, where no client socket gets one", () => {
  let range: [number, number] = [32_768, 60_999];
  try {
    const [low, high] = Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range").trim().split(/\s+/)
      .map(Number);
    range = [low, high];
  } catch { /* not Linux: the default range is assumed */ }
  for (let i = 0; i < 20; i++) {
    const port = freePort();
    assert.ok(port < range[0] || port > range[1], `port ${port} is outside ${range[0]}-${range[1]}`);
    assert.ok(port >= 10_000 && port <= 65_535);
    Deno.listen({ hostname: "127.0.0.1", port }).close(); // free when handed out
  }
});

Deno.test("rangeOutside: the wider gap around the ephemeral range, none when it covers nearly everything", () => {
  assert.deepEqual(rangeOutside([32_768, 60_999]), [10_000, 32_767]);
  assert.deepEqual(rangeOutside([10_000, 20_000]), [20_001, 65_535]);
  assert.equal(rangeOutside([1_024, 65_000]), null);
});

Deno.test("listeningInodes keeps the port's listening sockets only", () => {
  const table = [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1",
    "   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 222 1",
    "   2: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 333 1",
  ].join("\n");
  assert.deepEqual(listeningInodes(table, 0x1f90), ["111"]);
});

Deno.test("listeningPid finds this process behind its own listener, and not once it is closed", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    assert.equal(await listeningPid(server.addr.port), Deno.pid);
  } finally {
    await server.shutdown();
  }
  // Another process (a test beside this one) may listen on the port by now: only this one must be gone.
  assert.notEqual(await listeningPid(server.addr.port), Deno.pid);
});

Deno.test("listeningPid in a child process finds the parent that listens (asked before the walk)", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    const code = `import { listeningPid } from ${JSON.stringify(new URL("./ports.ts", import.meta.url).href)};
      const t = performance.now(); const pid = await listeningPid(${server.addr.port});
      console.log(JSON.stringify({ pid, ms: performance.now() - t }));`;
    const out = await new Deno.Command(Deno.execPath(), { args: ["eval", code], stderr: "inherit" }).output();
    const { pid, ms } = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(pid, Deno.pid, `the child found ${pid} in ${ms} ms`);
  } finally {
    await server.shutdown();
  }
});
