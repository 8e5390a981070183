/**
 * @module
 * The one error of command-line parsing: one line naming the problem and the fix (exit 2).
 */

/** Bad command-line input: print `message`, exit 2 or the input's own tool's `exitCode` (k6's 104). */
export class UsageError extends Error {
  override name = "UsageError";
  readonly exitCode?: number;
  /** A well-formed value out of range (`-u 0`): k6 refuses it checking its config (104), not its flags. */
  readonly outOfRange?: boolean;
  constructor(message: string, options?: ErrorOptions & { exitCode?: number; outOfRange?: boolean }) {
    super(message, options);
    if (options?.exitCode !== undefined) this.exitCode = options.exitCode;
    if (options?.outOfRange) this.outOfRange = true;
  }
}

/** A message on one line (a JSON parser's message may hold the offending text with its newlines). */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}

/** `-h`/`--help` was given; print `text` to stdout and exit 0. */
export class HelpRequested extends Error {
  override name = "HelpRequested";
  constructor(readonly text: string) {
    super("help requested");
  }
}
