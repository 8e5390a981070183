/**
 * @module
 * The one error type of every target start-up failure. Setup problems (a port in use, an app that exits
 * early, Redis unreachable) are the user's to fix: each error carries a `hint` beside its `cause`, and the
 * CLI prints message and hint, exiting non-zero, instead of a stack trace.
 */

/** A target could not be started or reached; `hint` says what the user can do about it. */
export class TargetError extends Error {
  override name = "TargetError";
  readonly hint: string;
  constructor(message: string, hint: string, options?: ErrorOptions) {
    super(hint ? `${message} (hint: ${hint})` : message, options);
    this.hint = hint;
  }
}
