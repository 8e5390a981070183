/** The verdict badge's colour for each kind of `failed` flag the verdict table writes. */
import assert from "node:assert/strict";
import { verdictClass } from "./sections.ts";

Deno.test("every failed flag's badge is red, other flags the accent colour, ok green", () => {
  for (
    const failed of [
      "failed: no response (connect 20)",
      "failed: every session failed, none sent a request (script 4)",
      "failed: no answer its rule takes, 12 other messages came",
      "tls: failed: no response (tls 3)",
    ]
  ) assert.equal(verdictClass(failed), "badge flag failed", failed);
  assert.equal(verdictClass("ok"), "badge");
  assert.equal(verdictClass("generator-bound, dropped 12%"), "badge flag");
  assert.equal(verdictClass("errors 25% (closed-early 10)"), "badge flag");
});
