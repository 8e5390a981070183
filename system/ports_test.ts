import assert from "node:assert/strict";
import { freePort, waitForPort } from "./ports.ts";

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
