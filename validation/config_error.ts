/**
 * @module
 * `ConfigError`: bad configuration of any kind; commands exit 2 on it before any load is sent.
 */
import { formatIssues, type Issue } from "./mod.ts";

/** `issues` stay `{path, message}` data for the caller to map to flags or keys; the message is one line. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(readonly issues: Issue[], options?: ErrorOptions) {
    super(formatIssues(issues).join("; "), options);
  }
}
