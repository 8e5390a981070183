import assert from "node:assert/strict";
import { hostCpuDelta, readHostCpu } from "./host.ts";

Deno.test({
  name: "host CPU: a process outside loadlab's tree is other work; loadlab's own CPU is not",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const before = readHostCpu();
    assert.ok(before, "/proc/stat and this process's tree are readable on Linux");
    // A loop of about one second that the shell's double fork hands to init: not under this process.
    const out = await new Deno.Command("sh", {
      args: ["-c", "(timeout 1 sh -c 'while :; do :; done' &) ; sleep 1.1"],
    }).output();
    assert.equal(out.code, 0);
    // This process's own spinning counts in its tree, not as other work: spun until it has used 150 ms
    // of CPU as its tree counts it (a busy machine gives it a fraction of the wall time), at most 30 s.
    const giveUpAt = performance.now() + 30_000;
    let after = readHostCpu();
    while (after!.treeSec - before!.treeSec < 0.15 && performance.now() < giveUpAt) {
      for (const spinUntil = performance.now() + 5; performance.now() < spinUntil;) { /* spin */ }
      after = readHostCpu();
    }
    const delta = hostCpuDelta(before, after);
    assert.ok(delta, "a delta");
    assert.ok(after!.treeSec - before!.treeSec >= 0.1, `own CPU ${after!.treeSec - before!.treeSec}`);
    // On an idle machine the loop is about 0.8 cores over the 1.4 s; on a busy one, more others besides.
    assert.ok(delta.otherCores >= 0.3 && delta.otherCores <= delta.cores, JSON.stringify(delta));
    // The host's cores, whatever this process's affinity (a pinned generator sees one).
    assert.ok(delta.cores >= navigator.hardwareConcurrency);
    if (delta.stallPct !== undefined) assert.ok(delta.stallPct >= 0 && delta.stallPct <= 100);
    assert.equal(hostCpuDelta(null, after), null);
    assert.equal(hostCpuDelta(after, before), null);
  },
});
