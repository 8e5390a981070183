import assert from "node:assert/strict";
import { makeCpuSleepQuick, makeSeed000 } from "../../tests/fixtures/make_results.ts";
import { profileNotes, summaryLine } from "./progress.ts";

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

Deno.test("a profile not taken, or qualified, is said on the terminal: the wrong process, mostly idle", () => {
  const run = makeSeed000(1, 5).runs[0];
  const wrong = "the inspector on 127.0.0.1:9229 belongs to process 41, not to the target's process 40 " +
    "(another process took the port before the target bound it): not profiled";
  const profiles = [
    { process: "target", error: wrong },
    {
      process: "target#2\u001b[31m",
      file: "p.cpuprofile",
      warning: "profile mostly idle (99.0% of 1.0 s idle)",
    },
    { process: "balancer", file: "b.cpuprofile" },
  ];
  assert.deepEqual(profileNotes({ ...run, profiles }), [
    `CPU profile of target: ${wrong}`,
    "CPU profile of target#2: profile mostly idle (99.0% of 1.0 s idle)",
  ]);
  assert.deepEqual(profileNotes(run), []);
});
