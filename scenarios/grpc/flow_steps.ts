/**
 * @module
 * The flows' `grpc:` steps checked against the section's schema when the file loads.
 */
import type protobuf from "protobufjs";
import type { Issue } from "../../validation/mod.ts";
import type { FileFlow } from "../schema/requests.ts";
import type { Experiment } from "../schema/experiment.ts";
import { callIssue } from "../../runner/http/grpc/call_spec.ts";
import { schemaBytes } from "../../runner/http/grpc/reflected_run.ts";

/** Every flow of the file with where it is written: the file's `flows:` and each load's own. */
function flowsWithPaths(exp: Experiment): [FileFlow, string][] {
  const found: [FileFlow, string][] = (exp.flows ?? []).map((f, k) => [f, `flows[${k}]`]);
  for (const [name, load] of Object.entries(exp.loads)) {
    (load.flows ?? []).forEach((f, k) => found.push([f, `loads.${name}.flows[${k}]`]));
  }
  return found;
}

/** The file's gRPC steps checked against `root`: the schema's bytes for the workers, and the problems. */
export function grpcFlowsOf(exp: Experiment, root: protobuf.Root | undefined) {
  if (!flowsWithPaths(exp).some(([flow]) => flow.steps.some((s) => "grpc" in s))) return { issues: [] };
  // A section that could not be read has its own problem; its steps are not checked against nothing.
  if (root === undefined && exp.grpc !== undefined) return { issues: [] };
  const issues = grpcStepIssues(exp, root);
  return root === undefined ? { issues } : { schema: schemaBytes(root), issues };
}

/** The problems of the file's gRPC steps against `root` (the section's schema; none: a missing section). */
function grpcStepIssues(exp: Experiment, root: protobuf.Root | undefined): Issue[] {
  const issues: Issue[] = [];
  for (const [flow, at] of flowsWithPaths(exp)) {
    flow.steps.forEach((step, j) => {
      if (!("grpc" in step)) return;
      const path = `${at}.steps[${j}].grpc`;
      if (root === undefined) {
        issues.push({
          path,
          message: "a gRPC step calls by the file's grpc: section's schema: add one " +
            "(proto: FILE or protoset: FILE; neither: the built-in target's)",
        });
        return;
      }
      const source = {
        call: step.grpc.call,
        message: JSON.stringify(step.grpc.message),
        metadata: Object.entries(step.grpc.metadata),
      };
      const issue = callIssue(root, source, path);
      if (issue !== null) issues.push(issue);
    });
  }
  return issues;
}
