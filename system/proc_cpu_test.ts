import assert from "node:assert/strict";
import { parseCpuLine } from "./proc_cpu.ts";

Deno.test("proc cpu: busy time leaves idle and iowait out, cores counted from their lines; no total line gives null", () => {
  const text = "cpu  100 20 30 400 50 6 4 0 0 0\ncpu0 50 10 15 200 25 3 2 0 0 0\nintr 1\n";
  assert.deepEqual(parseCpuLine(text), { busySec: 1.6, totalSec: 6.1, cores: 1 });
  assert.equal(parseCpuLine("cpu0 1 2 3 4\n"), null);
  assert.equal(parseCpuLine("cpu  x y z w\n"), null);
});
