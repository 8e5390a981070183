/**
 * @module
 * The one error of target start-up failures: the user's to fix, so it carries a `hint`.
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
