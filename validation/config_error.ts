/**
 * @module
 * `ConfigError`: bad configuration of any kind (an attack's flags or config, an experiment's loads, a
 * threshold or SLO expression). Its `issues` stay data (`{path, message}`) so the caller maps each path
 * to a flag or a file key without parsing text; its message is the formatted issues on one line. The
 * commands exit 2 on it, before any load is sent.
 */
import { formatIssues, type Issue } from "./mod.ts";

/** A configuration problem; `issues` are data for the caller to map, the message one line per issue. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(readonly issues: Issue[], options?: ErrorOptions) {
    super(formatIssues(issues).join("; "), options);
  }
}
