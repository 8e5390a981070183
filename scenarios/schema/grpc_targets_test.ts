import assert from "node:assert/strict";
import { grpcTargetIssues } from "./checks.ts";
import type { FileTarget } from "./targets.ts";

Deno.test("a load on the gRPC listener needs a built-in target serving it, and says which load", () => {
  const targets: Record<string, FileTarget> = {
    plain: { kind: "builtin" },
    served: { kind: "builtin", grpc: true },
    running: { kind: "url", url: "http://127.0.0.1:8080" },
  };
  assert.deepEqual(grpcTargetIssues(targets, false, "h2-node"), [
    {
      path: ["targets", "plain"],
      message: 'load "h2-node" is sent to the gRPC listener (listener: grpc): add grpc: true',
    },
    {
      path: ["targets", "running"],
      message: 'load "h2-node" is sent to the gRPC listener (listener: grpc), which only the built-in ' +
        "target has (kind: builtin, grpc: true)",
    },
  ]);
  assert.deepEqual(grpcTargetIssues(targets, false), []);
});
