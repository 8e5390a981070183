/**
 * @module
 * The `grpc:` section's schema and calls read, flows' gRPC steps checked; loaded for gRPC only.
 */
import protobuf from "protobufjs";
import { dirname, isAbsolute, join } from "node:path";
import type { GrpcSection } from "./experiment.ts";
import { DEFAULT_TIMEOUT_MS } from "../../runner/config_fields.ts";
import { grpcRequestMix } from "./calls.ts";
import { loadProtoFile, loadProtoset } from "../../runner/http/grpc/schema.ts";
import targetProto from "../../targets/app/target.proto" with { type: "text" };
import type { Issue } from "../../validation/mod.ts";
import type { FileFlow } from "../schema/requests.ts";
import type { Experiment } from "../schema/experiment.ts";
import { callIssue, grpcIssue } from "../../runner/http/grpc/call_spec.ts";
import { schemaBytes } from "../../runner/http/grpc/reflected_run.ts";

/** The calls of a `grpc:` section, read relative to `file`; problems as issues at their path. */
export function grpcCallsOf(section: GrpcSection, file: string | undefined) {
  const base = file === undefined ? Deno.cwd() : dirname(file);
  const at = (p: string) => isAbsolute(p) ? p : join(base, p);
  // A reflected schema is asked when each run starts (runner/http/grpc/reflected_run.ts).
  if (section.reflect) return { requests: [], issues: [] };
  try {
    const root = section.proto !== undefined
      ? loadProtoFile(at(section.proto), section.importPaths.map(at))
      : section.protoset !== undefined
      ? loadProtoset(at(section.protoset))
      : protobuf.parse(targetProto, new protobuf.Root(), { keepCase: true }).root;
    root.resolveAll();
    if (section.call === undefined) return { requests: [], issues: [], root };
    const source = {
      call: section.call,
      message: JSON.stringify(section.message),
      metadata: Object.entries(section.metadata),
      maxSendBytes: section.maxSendBytes,
      compress: section.compress,
    };
    return { requests: grpcRequestMix(root, source, DEFAULT_TIMEOUT_MS), issues: [], root };
  } catch (err) {
    // A file's problem is named at the key that gave the file; a call's, at the call.
    const fileKey = (["proto", "protoset"] as const).find((k) => section[k] !== undefined) ?? "call";
    const text = err instanceof Error ? err.message : "";
    const ofFile = /proto|import/.test(text) && !/^no (service|method)/.test(text);
    return { requests: [], issues: [grpcIssue(err, "grpc", `grpc.${ofFile ? fileKey : "call"}`)] };
  }
}

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
