/**
 * @module
 * `OutputError`: a file loadlab writes (results.json, report.html, a request log, a CI summary) could not
 * be written. Whichever layer writes the file throws it naming the path and the system's reason; the
 * commands turn it into exit code 5 (`EXIT.outputNotWritable`, cli/exit_codes.ts).
 */

/** An output file could not be written; exit code 5 at the CLI. */
export class OutputError extends Error {
  override name = "OutputError";
}
