/**
 * @module
 * The /proc stat reader: a command name with spaces and parentheses, this process's own line, and the
 * CPU time of a real process tree (a shell that works, with a child of its own) read while it runs.
 */
import assert from "node:assert/strict";
import {
  parseCpuLine,
  parseProcStat,
  processTree,
  readProcSample,
  readProcStat,
  treeCpuSec,
} from "./proc_stat.ts";

Deno.test("parseProcStat: fields counted from the last ')' (names may hold spaces and parentheses)", () => {
  const fields = ["S", "1", "77", "77", "0", "-1", "4194560", "10", "0", "0", "0", "250", "125", "30", "20"]
    .concat(["20", "0", "1", "0", "987654", "1000", "100"]);
  const stat = parseProcStat(`4242 (we (ird) name) ${fields.join(" ")}`);
  assert.deepEqual(stat, {
    state: "S",
    pgrp: 77,
    startTicks: 987654,
    userSec: 2.5,
    systemSec: 1.25,
    childrenUserSec: 0.3,
    childrenSystemSec: 0.2,
  });
  assert.deepEqual(parseProcStat("no parenthesis here"), null);
  assert.deepEqual(parseProcStat("1 (short) S 0"), null);
});

Deno.test({
  name: "readProcStat / treeCpuSec: a working shell and its child are found and their CPU counted",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const self = readProcStat("self");
    assert(
      self !== null && /^[RS]$/.test(self.state) && self.startTicks > 0,
      `this process: ${JSON.stringify(self)}`,
    );
    assert.deepEqual(readProcStat(2 ** 22 + 12345), null); // above pid_max: never a process
    // Bounded work (a counted loop), then a child that sleeps: the tree has two processes.
    const script = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; sleep 30 & echo done; wait";
    const child = new Deno.Command("sh", { args: ["-c", script], stdout: "piped" }).spawn();
    try {
      const reader = child.stdout.getReader();
      const { value } = await reader.read(); // "done": the loop ended and the sleeper was started
      reader.releaseLock();
      assert(value !== undefined && new TextDecoder().decode(value).includes("done"));
      let tree = processTree(child.pid);
      for (let i = 0; i < 100 && tree.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 20));
        tree = processTree(child.pid);
      }
      assert.deepEqual(tree[0], child.pid);
      assert(tree.length >= 2, `the shell's sleeping child is listed: ${tree}`);
      const cpu = treeCpuSec(child.pid);
      assert(cpu !== null && cpu >= 0.01, `100,000 shell iterations take CPU time: ${cpu}`);
    } finally {
      for (const pid of processTree(child.pid).reverse()) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone */ }
      }
      await child.status;
      await child.stdout.cancel().catch(() => {});
    }
  },
});

Deno.test({
  name: "readProcSample reads CPU seconds and RSS of a live process, null for a gone one",
  ignore: Deno.build.os !== "linux",
}, () => {
  const own = readProcSample(Deno.pid);
  assert.ok(own !== null);
  assert.ok(own.rssBytes > 1_000_000, `RSS ${own.rssBytes} should be over 1 MB for a Deno process`);
  assert.ok(own.cpuSec >= 0);
  assert.equal(readProcSample(2 ** 22 + 7), null);
});

Deno.test("proc cpu: busy time leaves idle and iowait out, cores counted from their lines; no total line gives null", () => {
  const text = "cpu  100 20 30 400 50 6 4 0 0 0\ncpu0 50 10 15 200 25 3 2 0 0 0\nintr 1\n";
  assert.deepEqual(parseCpuLine(text), { busySec: 1.6, totalSec: 6.1, cores: 1 });
  assert.equal(parseCpuLine("cpu0 1 2 3 4\n"), null);
  assert.equal(parseCpuLine("cpu  x y z w\n"), null);
});
