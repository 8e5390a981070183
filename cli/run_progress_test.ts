import assert from "node:assert/strict";
import { makeCpuSleepQuick, makeSeed000 } from "../tests/fixtures/make_results.ts";
import { summaryLine } from "./run_progress.ts";

Deno.test("a run's progress line puts requested, sent and dropped beside achieved, and its verdict last", () => {
  const [bound, , dropped] = makeCpuSleepQuick().runs;
  const line = summaryLine(dropped);
  assert.match(
    line,
    /^single\/cpuTime\/query\.ms=10 {2}94\.0 of 20,000 req\/s requested, sent 94, dropped 29,839 \(99\.7%\)/,
  );
  assert.match(line, /success 100\.00% of sent {2}\[dropped 99\.7%\]$/);
  assert.match(summaryLine(bound), /\[generator-bound\]$/);
  const closed = makeSeed000(1, 5).runs[0];
  assert.match(summaryLine({ ...closed, targetRps: null, model: "connections" }), / req\/s {2}p50 .*\[ok\]$/);
  const profiled = { ...closed, profiles: [{ process: "target", file: "profiles/a.target.cpuprofile" }] };
  assert.match(summaryLine(profiled), /\[ok\] {2}\(profiled\)$/);
});
