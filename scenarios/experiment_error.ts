/**
 * @module
 * The one error of experiment files: every problem as `{path, message}`, one line each.
 */
import type { Issue } from "../validation/mod.ts";
import { formatIssues } from "../validation/config_error.ts";

/** Every problem of an experiment file; the message has one line per issue. Exit code 2 (or `exitCode`). */
export class ExperimentError extends Error {
  override name = "ExperimentError";
  readonly exitCode?: number;
  constructor(readonly issues: Issue[], options?: ErrorOptions & { file?: string; exitCode?: number }) {
    const where = options?.file ? `${options.file}: ` : "";
    super(formatIssues(issues).map((line) => where + line).join("\n"), options);
    this.exitCode = options?.exitCode;
  }
}
