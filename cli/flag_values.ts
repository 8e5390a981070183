/**
 * @module
 * Typed reads of tokenized flags, each refusal naming the flag as typed and a good value; durations
 * (`500ms`, `1m30s`, bare seconds) in milliseconds.
 */
import type { FlagSpec, RawArgs } from "./argv.ts";
import { UsageError } from "./usage_error.ts";
import { MAX_RATE_PER_SEC } from "../runner/load/models/fields.ts";
import { DURATION_HINT, durationMsOf, MAX_DURATION_MS, MAX_DURATION_WORDS } from "../validation/duration.ts";

const WHOLE = /^\d+$/;
const DECIMAL = /^(\d+(\.\d+)?|\.\d+)$/;
/** A decimal number, optionally with a power of ten (`2.5e6`). */
const RATE = /^(\d+(\.\d+)?|\.\d+)([eE]\+?\d+)?$/;

/** How to write a whole number given with a power of ten (`1e9`) in digits; "" for anything else. */
function inDigits(value: string): string {
  const n = Number(value);
  return RATE.test(value) && !WHOLE.test(value) && Number.isSafeInteger(n) ? ` written in digits (${n})` : "";
}

/** Read access to the flags of one command line, by long name. */
export class FlagValues {
  constructor(private readonly raw: RawArgs, private readonly specs: FlagSpec[]) {}

  has(long: string): boolean {
    return this.raw.values.has(long);
  }

  /** The flag as the user spelled it (`-c` or `--connections`), for messages. */
  typed(long: string): string {
    return this.raw.spelled.get(long) ?? `--${long}`;
  }

  text(long: string): string | undefined {
    return this.raw.values.get(long)?.at(-1);
  }

  all(long: string): string[] {
    return this.raw.values.get(long) ?? [];
  }

  /** A file path; an empty one is an error rather than "no file". */
  path(long: string): string | undefined {
    const value = this.text(long);
    if (value === "") throw this.problem(long, value, "empty path");
    return value;
  }

  /** Text that must not be empty, e.g. a host name. */
  nonEmpty(long: string): string | undefined {
    const value = this.text(long);
    if (value === "") throw this.problem(long, value, "must not be empty");
    return value;
  }

  positiveInt(long: string): number | undefined {
    const value = this.text(long);
    if (value === undefined) return undefined;
    if (!WHOLE.test(value) || Number(value) < 1) {
      throw this.problem(long, value, `must be a whole number >= 1${inDigits(value)}`);
    }
    return Number(value);
  }

  /** A whole number within `min..max`, e.g. a port (0..65535). */
  wholeNumber(long: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const value = this.text(long);
    if (value === undefined) return undefined;
    if (!WHOLE.test(value) || Number(value) < min || Number(value) > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `${min}..${max}`;
      throw this.problem(long, value, `must be a whole number ${range}${inDigits(value)}`);
    }
    return Number(value);
  }

  /** Plain seconds as a decimal number >= 0 (a TTL), e.g. `1.5`. */
  seconds(long: string): number | undefined {
    const value = this.text(long);
    if (value === undefined) return undefined;
    if (!DECIMAL.test(value)) throw this.problem(long, value, "must be a number of seconds >= 0");
    return Number(value);
  }

  /** One of `choices`, as typed. */
  choice<T extends string>(long: string, choices: readonly T[]): T | undefined {
    const value = this.text(long);
    if (value === undefined) return undefined;
    const found = choices.find((c) => c === value);
    if (found === undefined) throw this.problem(long, value, `must be one of ${choices.join(", ")}`);
    return found;
  }

  /** Requests per second (> 0, or >= 0 when `allowZero`), at most `MAX_RATE_PER_SEC`. */
  rate(long: string, allowZero = false): number | undefined {
    const value = this.text(long);
    if (value === undefined) return undefined;
    const cap = MAX_RATE_PER_SEC.toLocaleString("en-US");
    if (!RATE.test(value) || (!allowZero && Number(value) === 0)) {
      throw this.problem(
        long,
        value,
        `must be a rate in requests per second ${allowZero ? ">= 0" : "> 0"} and at most ${cap}`,
      );
    }
    if (Number(value) > MAX_RATE_PER_SEC) {
      throw this.problem(long, value, `is over the cap of ${cap} requests per second for one load`);
    }
    return Number(value);
  }

  durationMs(long: string): number | undefined {
    const value = this.text(long);
    return value === undefined ? undefined : parseDurationMs(value, this.typed(long));
  }

  positiveDurationMs(long: string): number | undefined {
    const ms = this.durationMs(long);
    if (ms === 0) throw this.problem(long, this.text(long) ?? "", "must be longer than 0");
    return ms;
  }

  private problem(long: string, value: string, why: string): UsageError {
    const typed = this.typed(long);
    const spec = this.specs.find((f) => f.long === long);
    // A value that may only follow `=` is shown that way (`--compress=gzip`).
    const sep = spec?.optionalValue ? "=" : " ";
    return new UsageError(
      `${typed} ${JSON.stringify(value)}: ${why}, e.g. ${typed}${sep}${spec?.example ?? "<value>"}`,
    );
  }
}

/**
 * Parses a duration to milliseconds (>= 0). `flag` only shapes the error message.
 *
 * @example parseDurationMs("1m30s") === 90_000; parseDurationMs("90") === 90_000
 */
export function parseDurationMs(s: string, flag?: string): number {
  const text = s.trim();
  const ms = /^(\d+(?:\.\d+)?|\.\d+)$/.test(text) ? Number(text) * 1_000 : durationMsOf(text);
  const prefix = flag ? `${flag} ${JSON.stringify(s)}` : JSON.stringify(s);
  const eg = (value: string) => `e.g. ${flag ? `${flag} ${value}` : value}`;
  if (ms === undefined || !Number.isFinite(ms)) {
    throw new UsageError(`${prefix}: not a duration; ${DURATION_HINT}, ${eg("10s")}`);
  }
  if (ms > MAX_DURATION_MS) throw new UsageError(`${prefix}: must be ${MAX_DURATION_WORDS}, ${eg("1h")}`);
  return ms;
}
