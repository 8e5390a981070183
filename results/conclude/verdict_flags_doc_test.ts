import assert from "node:assert/strict";
import { type FlagBlocks, VERDICT_FLAGS } from "./run_verdict.ts";

/** How docs/REFERENCE.md words what a flag keeps from judging the target. */
const BLOCKS_TEXT: Record<NonNullable<FlagBlocks>, string> = {
  loadlab: "every finding",
  knee: "a knee, unless server-bound",
};

Deno.test("docs/REFERENCE.md lists the run verdict's flags as VERDICT_FLAGS does, in its order", () => {
  const doc = Deno.readTextFileSync(new URL("../../docs/REFERENCE.md", import.meta.url));
  const from = doc.indexOf("## The run verdict");
  const section = doc.slice(from, doc.indexOf("\n## ", from + 1));
  const rows = [...section.matchAll(/^\| `([^`]+)` +\| (.+?) +\| (.*?) *\|$/gm)]
    .map(([, kind, means, blocks]) => ({ kind, means, blocks }));
  assert.deepEqual(
    rows,
    VERDICT_FLAGS.map((f) => ({
      kind: f.kind,
      means: f.means,
      blocks: f.blocks ? BLOCKS_TEXT[f.blocks] : "",
    })),
  );
});
