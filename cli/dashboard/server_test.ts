/** @module Tests of the SSE hub: framing, and the bounded queue that drops a stuck client. */
import assert from "node:assert/strict";
import { EventHub, sseFrame } from "./server.ts";

Deno.test("sseFrame: event line, one data line of JSON, blank line", () => {
  const text = new TextDecoder().decode(sseFrame("progress", { a: "x\ny" }));
  assert.equal(text, 'event: progress\ndata: {"a":"x\\ny"}\n\n');
});

Deno.test("EventHub: a client that never reads is dropped once its queue passes the bound", async () => {
  const hub = new EventHub(4096);
  const stuck = hub.connect([]);
  const reader = hub.connect([]).body!.getReader();
  const payload = "x".repeat(500);
  let read = 0;
  for (let i = 0; i < 50; i++) {
    hub.send("progress", { payload }); // never awaits
    const chunk = await reader.read();
    read += chunk.value?.byteLength ?? 0;
  }
  const stats = hub.stats();
  assert.equal(stats.dropped, 1);
  assert.equal(stats.clients, 1);
  assert(stats.maxQueuedBytes <= 4096 + 600, `queue grew to ${stats.maxQueuedBytes}`);
  assert(read > 50 * 500);
  await stuck.body!.getReader().read().then(
    () => assert(false),
    (err) => assert(/dropped/.test(String(err))),
  );
  hub.closeAll();
  assert.equal((await reader.read()).done, true);
});
