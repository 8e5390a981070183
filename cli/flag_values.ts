/**
 * @module
 * Typed reads of tokenized flags (`--out KIND=URL` too), a refusal naming the flag as typed and a good value;
 * option rows' flags.
 */
import { flag, flagsOf, type FlagSpec, type FlagTable, type RawArgs, tokenize } from "./argv.ts";
import type { Option } from "../runner/option.ts";
import { UsageError } from "./usage_error.ts";
import { numberSpelling, quotedVisible } from "../validation/terminal_text.ts";
import { MAX_RATE_PER_SEC } from "../runner/load/models/fields.ts";
import { formatCount } from "../results/text_format.ts";
import { durationMsOf, durationProblem, durationText } from "../validation/duration.ts";
import {
  type MetricsOutput,
  outputProblems,
  parseMetricsOutput,
  withoutPassword,
} from "../results/export/metrics_output.ts";

/** A whole number, and a decimal one, as every flag and list on the command line writes them. */
export const WHOLE = /^\d+$/, DECIMAL = /^(\d+(\.\d+)?|\.\d+)$/;
/** A decimal number, optionally with a power of ten (`2.5e6`). */
const RATE = /^(\d+(\.\d+)?|\.\d+)([eE]\+?\d+)?$/;

/** How to write a whole number given with a power of ten (`1e9`) in digits; "" for anything else. */
function inDigits(value: string): string {
  const n = Number(value);
  return RATE.test(value) && !WHOLE.test(value) && Number.isSafeInteger(n) ? ` written in digits (${n})` : "";
}

/** Why a path of "-" is refused: it is no file, and loadlab reads stdin and writes stdout by no path. */
export const DASH_PATH = "names no file (loadlab reads no stdin, writes no stdout by -)";

/** Read access to the flags of one command line, by long name. */
export class FlagValues {
  constructor(readonly raw: RawArgs, private readonly specs: FlagSpec[]) {}

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
    const path = this.nonEmpty(long, "empty path");
    if (path === "-") throw this.problem(long, path, DASH_PATH);
    return path;
  }

  /** Text that must not be empty, e.g. a host name; `why` is the refusal of an empty one. */
  nonEmpty(long: string, why = "must not be empty"): string | undefined {
    const value = this.text(long);
    if (value === "") throw this.problem(long, value, why);
    return value;
  }

  positiveInt(long: string): number | undefined {
    return this.wholeNumber(long, 1);
  }

  /** A whole number within `min..max`, e.g. a port (0..65535). */
  wholeNumber(long: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const value = this.text(long);
    if (value === undefined) return undefined;
    if (!WHOLE.test(value) || Number(value) < min || Number(value) > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `${min}..${max}`,
        why = `must be a whole number ${range}${inDigits(value)}`;
      throw this.problem(long, value, why, /^-?\d+$/.test(value));
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
    const cap = formatCount(MAX_RATE_PER_SEC);
    if (!RATE.test(value) || (!allowZero && Number(value) === 0)) {
      const why = `must be a rate in requests per second ${allowZero ? ">= 0" : "> 0"} and at most ${cap}`;
      throw this.problem(long, value, why);
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

  private problem(long: string, value: string, why: string, outOfRange = false): UsageError {
    const typed = this.typed(long);
    const spec = this.specs.find((f) => f.long === long);
    // A value that may only follow `=` is shown that way (`--compress=gzip`).
    const sep = spec?.optionalValue ? "=" : " ", note = numberSpelling(value);
    // A space about a number is the problem, as about a duration; another locale's digits or comma are told.
    const said = value.trim() !== value
      ? "has a space before or after it: drop it"
      : why + (note && ` (${note})`);
    const eg = `e.g. ${typed}${sep}${spec?.example ?? "<value>"}`;
    return new UsageError(`${typed} ${quotedVisible(value)}: ${said}, ${eg}`, { outOfRange });
  }
}

/** `argv` read by a command's flag `table` (`tokenize`'s arguments after it); its arguments in `raw`. */
export function readFlags(argv: string[], table: FlagTable, command: string, help?: string, hints = {}) {
  const specs = flagsOf(table);
  return new FlagValues(tokenize(argv, specs, hints, command, help), specs);
}

/** A duration (`1m30s`, `500ms`, bare seconds `90`) in ms (>= 0); `flag` only shapes the error message. */
export function parseDurationMs(s: string, flag?: string): number {
  const ms = DECIMAL.test(s) ? Number(s) * 1_000 : durationMsOf(s);
  const problem = durationProblem(s, ms);
  if (problem === undefined) return ms!;
  const [said, eg] = flag
    ? [`${flag} ${quotedVisible(s)}`, `${flag} ${problem.eg}`]
    : [quotedVisible(s), problem.eg];
  throw new UsageError(`${said}: ${problem.why}, e.g. ${eg}`);
}

/** `KIND=URL` values parsed (`typed`: the flag as spelled, or `out:`); a bad or repeated one throws. */
export function parseMetricsOuts(typed: string, values: string[]): MetricsOutput[] {
  const [problem] = outputProblems(values);
  if (problem) throw new UsageError(`${typed} ${withoutPassword(values[problem[0]])}: ${problem[1]}`);
  return values.map(parseMetricsOutput) as MetricsOutput[];
}

/** The flags of the rows that have one, by key, each's default after its first help line. */
export function optionFlags(rows: Record<string, Option>, configPrefix = ""): Record<string, FlagSpec> {
  const flagged = Object.entries(rows).filter(([, o]) => o.flag);
  return Object.fromEntries(flagged.map(([key, o]) => {
    const fallback = defaultText(o);
    const [first = "", ...rest] = o.help;
    const head = fallback === undefined ? first : `${first} `.padEnd(61 - fallback.length) + `[${fallback}]`;
    const extras = { config: [configPrefix + key], example: o.example, aliases: o.aliases };
    return [key, flag(o.flag!, { ...extras, repeatable: o.repeatable }, [head, ...rest])];
  }));
}

/** The values of the flags of `rows` (`specs` from `optionFlags`) that were given, by key; models' aside. */
export function optionValues(
  flags: FlagValues,
  rows: Record<string, Option>,
  specs: Record<string, FlagSpec>,
): Record<string, unknown> {
  const given = Object.entries(specs).filter(([key, s]) => !rows[key].model && flags.has(s.long));
  return Object.fromEntries(given.map(([key, s]) => [key, valueOf(flags, s, rows[key])]));
}

/** A switch true, a repeatable flag's list, one of its words, text, a duration or a count (0 if allowed). */
function valueOf(flags: FlagValues, s: FlagSpec, o: Option): unknown {
  if (!s.takesValue) return true;
  if (s.repeatable) return flags.all(s.long);
  const words = s.usage!.split(" ").at(-1)!.split("|");
  if (words.length > 1) return flags.choice(s.long, words);
  if (o.kind === "text") return flags.nonEmpty(s.long);
  if (o.kind === "path") return flags.path(s.long);
  if (o.kind === "list") return flags.text(s.long)?.split(",").map((item) => item.trim());
  if (o.kind === "word") return flags.text(s.long);
  const zero = o.schema.safeParse(0).success;
  if (o.kind === "ms") return zero ? flags.durationMs(s.long) : flags.positiveDurationMs(s.long);
  return zero ? flags.wholeNumber(s.long, 0) : flags.positiveInt(s.long);
}

/** An option's default as a flag's value is written (`10s`, `65536`, `echo`); undefined when it has none. */
export function defaultText(o: Option): string | undefined {
  const value: unknown = o.schema.safeParse(undefined).data;
  if (typeof value === "number" && o.kind === "ms") {
    if (value > 0 && value % 60_000 === 0) return `${value / 60_000}m`;
    return durationText(value);
  }
  if (Array.isArray(value)) return value.length > 0 ? value.join(",") : undefined;
  if (typeof value === "object" && value !== null) return "kind" in value ? String(value.kind) : undefined;
  return typeof value === "boolean" ? undefined : value?.toString();
}
