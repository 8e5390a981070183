import assert from "node:assert/strict";
import { sleepUnlessAborted } from "./sleep.ts";

Deno.test("sleepUnlessAborted: an abort ends a long sleep at once; an aborted signal does not sleep", async () => {
  const controller = new AbortController();
  const started = Date.now();
  const sleeping = sleepUnlessAborted(60_000, controller.signal);
  setTimeout(() => controller.abort(), 20);
  await sleeping;
  assert.ok(Date.now() - started < 30_000, "the abort ended the sleep");
  await sleepUnlessAborted(60_000, controller.signal);
  assert.ok(Date.now() - started < 30_000, "an aborted signal does not sleep");
  // Without a signal it is a plain sleep of about the time asked (timers never fire early by much).
  const plain = Date.now();
  await sleepUnlessAborted(30);
  assert.ok(Date.now() - plain >= 25, `slept ${Date.now() - plain} ms`);
});
