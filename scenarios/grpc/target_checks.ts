/**
 * @module
 * The targets of an experiment's gRPC calls, checked before any starts.
 */
import type { FileTarget } from "../schema/targets.ts";

/** Where each problem lies and what to write. */
interface TargetIssue {
  path: (string | number)[];
  message: string;
}

/** The problems of `targets` receiving the `grpc:` section's calls or loads on the gRPC listener. */
export function grpcTargetIssues(
  targets: Record<string, FileTarget>,
  calls: boolean,
  listener?: string,
): TargetIssue[] {
  const issues: TargetIssue[] = [];
  for (const [name, target] of Object.entries(targets)) {
    if (target.kind !== "builtin") {
      if (listener !== undefined) {
        issues.push({
          path: ["targets", name],
          message: `load "${listener}" is sent to the gRPC listener (listener: grpc), which only the ` +
            "built-in target has (kind: builtin, grpc: true)",
        });
      }
      continue;
    }
    if (target.grpc && target.instances !== undefined && target.instances !== 1) {
      issues.push({
        path: ["targets", name, "grpc"],
        message:
          `grpc: true serves one instance's gRPC endpoints, not ${JSON.stringify(target.instances)}: ` +
          "drop instances (or set it to 1)",
      });
    }
    if (listener !== undefined && !target.grpc) {
      issues.push({
        path: ["targets", name],
        message: `load "${listener}" is sent to the gRPC listener (listener: grpc): add grpc: true`,
      });
    }
    if (calls && !target.grpc) {
      issues.push({
        path: ["targets", name],
        message: "the grpc: section's calls need the built-in target's gRPC endpoints: add grpc: true",
      });
    }
  }
  return issues;
}
