/**
 * @module
 * `OutputError`: a file loadlab writes could not be written; the commands exit 5 with its path.
 */

/** An output file could not be written; exit code 5 at the CLI. */
export class OutputError extends Error {
  override name = "OutputError";
}
