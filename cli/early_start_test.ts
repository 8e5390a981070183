/** `attack` starts its load worker isolate early unless a flag asks for limits its run could not take. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { startEarly } from "./early_start.ts";
import { takeEarlyWorker } from "../runner/worker/early_worker.ts";
import { memoryLimitMbOf } from "../runner/worker/memory_limit.ts";

function startedFor(command: string, args: string[]): boolean {
  startEarly(command, args);
  const early = takeEarlyWorker(12, memoryLimitMbOf({ workers: 1 }));
  early?.worker.terminate();
  return early !== null;
}

Deno.test("attack starts the isolate early unless --workers or --max-memory-mb asks for other limits", () => {
  assertEquals(startedFor("attack", ["http://127.0.0.1:1/", "-n", "1"]), true);
  for (const flag of [["-w", "2"], ["-w2"], ["--workers=2"], ["--cpus", "2"], ["--max-memory-mb", "900"]]) {
    assertEquals(startedFor("attack", ["http://127.0.0.1:1/", ...flag]), false, flag.join(" "));
  }
  assertEquals(startedFor("run", ["exp.yaml"]), false);
});
