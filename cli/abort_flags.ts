/**
 * @module
 * `--abort-on-fail` and `--delay-abort-eval D` of `attack` and `run`: k6's `abortOnFail` on every threshold.
 */
import { flag, type FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";

/** The two flags; each command gives them its own help text. */
export const ABORT_ON_FAIL: FlagSpec = flag("--abort-on-fail", {}, []);
export const DELAY_ABORT_EVAL: FlagSpec = flag("--delay-abort-eval D", { example: "10s" }, []);

/** `--abort-on-fail`'s request: `delayMs` when `--delay-abort-eval` was given. */
export interface AbortOnFailArg {
  delayMs?: number;
}

/** The flags' request, or undefined without `--abort-on-fail`; throws `UsageError` on a bad combination. */
export function abortOnFailArg(flags: FlagValues): AbortOnFailArg | undefined {
  const delayMs = flags.durationMs("delay-abort-eval");
  if (!flags.has("abort-on-fail")) {
    if (delayMs !== undefined) throw new UsageError("--delay-abort-eval needs --abort-on-fail");
    return undefined;
  }
  if (flags.has("segment")) {
    throw new UsageError(
      "--abort-on-fail judges the whole load, and a --segment runs part of it; drop one of them",
    );
  }
  return delayMs === undefined ? {} : { delayMs };
}
