/**
 * @module
 * The one error type every target start-up failure is reported with. Setup problems (a port in use, an
 * external app that exits early, Redis that cannot be reached) are things the user fixes, so each error
 * carries a `hint` with the way out next to the technical `cause`; the CLI prints message and hint and
 * exits non-zero instead of showing a stack trace.
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
