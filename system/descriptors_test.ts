import assert from "node:assert/strict";
import { parseProcLimits, readOpenFileLimit } from "./descriptors.ts";

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 1048576              files
Max locked memory         8388608              8388608              bytes
`;

Deno.test("parseProcLimits reads the soft open-file limit", () => {
  assert.equal(parseProcLimits(LIMITS), 1024);
  assert.equal(parseProcLimits(LIMITS.replace("1024   ", "unlimited")), Infinity);
  assert.equal(parseProcLimits("Max cpu time unlimited unlimited seconds\n"), null);
});

const isLinux = Deno.build.os === "linux";
if (!isLinux) console.log("skipped: readOpenFileLimit reads /proc/self/limits, which is Linux-only");

Deno.test({
  name: "readOpenFileLimit returns this process's limit on Linux",
  ignore: !isLinux,
  fn: () => {
    const limit = readOpenFileLimit();
    assert.ok(limit !== null && limit >= 64, `limit ${limit}`);
  },
});
