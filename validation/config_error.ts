/**
 * @module
 * `ConfigError`: bad configuration of any kind, exit 2 before any load; schema-free, as isolates throw it.
 */
import type { Issue } from "./mod.ts";

/** Each issue as one `path: message` line. */
export function formatIssues(issues: readonly Issue[]): string[] {
  return issues.map((i) => `${i.path}: ${i.message}`);
}

/** `issues` stay `{path, message}` data for the caller to map to flags or keys; the message is one line. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(readonly issues: Issue[], options?: ErrorOptions) {
    super(formatIssues(issues).join("; "), options);
  }
}
