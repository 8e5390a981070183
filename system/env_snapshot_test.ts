import assert from "node:assert/strict";
import process from "node:process";
import { withEnvSnapshot } from "./env_snapshot.ts";

Deno.test("env snapshot: the call sees the names asked for as they were, and the real env is back after", () => {
  const real = process.env;
  // A variable every process here has: setting one would set it for every parallel test file.
  const seen = withEnvSnapshot(["PATH", "LOADLAB_NOT_SET"], () => ({ ...process.env }));
  assert.deepEqual(seen, { PATH: Deno.env.get("PATH") });
  assert.throws(() =>
    withEnvSnapshot([], () => {
      throw new Error("boom");
    }), /boom/);
  assert.equal(process.env, real);
});
