/**
 * @module
 * The one error type of target start-up failures: each is the user's to fix (a port in use, an app that
 * exits early), so it carries a `hint` the CLI prints beside the message instead of a stack trace.
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
