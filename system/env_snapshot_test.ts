import assert from "node:assert/strict";
import process from "node:process";
import { withEnvSnapshot } from "./env_snapshot.ts";

Deno.test("env snapshot: the call sees the names asked for as they were, and the real env is back after", () => {
  const real = process.env;
  Deno.env.set("LOADLAB_SNAPSHOT_PROBE", "x");
  try {
    const seen = withEnvSnapshot(["LOADLAB_SNAPSHOT_PROBE", "LOADLAB_NOT_SET"], () => ({ ...process.env }));
    assert.deepEqual(seen, { LOADLAB_SNAPSHOT_PROBE: "x" });
    assert.throws(() =>
      withEnvSnapshot([], () => {
        throw new Error("boom");
      }), /boom/);
    assert.equal(process.env, real);
  } finally {
    Deno.env.delete("LOADLAB_SNAPSHOT_PROBE");
  }
});
