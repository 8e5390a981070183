/**
 * @module
 * The values of one sweep, read by its parameter.
 */
import { durationMsOf } from "../validation/duration.ts";
import { shownSweepValue } from "../results/redact.ts";
import { terminalSafe } from "../validation/terminal_text.ts";
import { durationSchema } from "./schema/requests.ts";
import { FILE_OPTIONS, WORD_FIELDS } from "./schema/loads.ts";

/** A value-level problem: `index` of the value, or null for the sweep's values as a whole. */
interface SweepValueProblem {
  index: number | null;
  message: string;
}

/** The sweep's values, numbers (durations read as milliseconds) or words, and what was wrong. */
export function readSweepValues(
  parameter: string,
  written: Array<number | string>,
): { values: number[] | string[]; problems: SweepValueProblem[] } {
  const field = parameter.startsWith("load.") ? parameter.slice("load.".length) : undefined;
  const words = field !== undefined && Object.hasOwn(WORD_FIELDS, field) ? WORD_FIELDS[field] : undefined;
  if (words) return withRepeats(parameter, wordValues(parameter, written, words.options));
  const problems: SweepValueProblem[] = [];
  const values = written.map((value, index) => {
    if (typeof value === "number") return value;
    if (unshown(value)) {
      problems.push({ index, message: unshownMessage(parameter, value) });
      return value;
    }
    const duration = durationSchema.safeParse(value);
    if (duration.success) return duration.data;
    if (durationMsOf(value) !== undefined) {
      problems.push({ index, message: duration.error.issues[0].message });
    } else if (field !== undefined) {
      problems.push({
        index,
        message: `${JSON.stringify(value)} is neither a number nor a duration; ${parameter} takes numbers${
          durationField(field) ? " or durations such as 10s" : ""
        } (words are for ${Object.keys(WORD_FIELDS).map((f) => `load.${f}`).join(", ")})`,
      });
    }
    return value;
  });
  const numbers = values.filter((v) => typeof v === "number");
  if (problems.length === 0 && numbers.length > 0 && numbers.length < values.length) {
    // Quoted as every output shows them: a secret parameter's values (`query.api_key`) as their tokens.
    const number = shownSweepValue(parameter, numbers[0]);
    const word = shownSweepValue(parameter, values.find((v) => typeof v === "string")!);
    problems.push({
      index: null,
      message: `one sweep is all numbers (and durations) or all words; found ${number} and ${
        JSON.stringify(word)
      }: split them into two sweeps`,
    });
  }
  return withRepeats(parameter, { values: values as number[] | string[], problems });
}

/**
 * `read` with a problem for each value equal to an earlier one as read (`1s`, `1000ms`) or in NFC form: each
 * value names a run, and two runs of one name read as repeats of one point.
 */
function withRepeats<T extends { values: number[] | string[]; problems: SweepValueProblem[] }>(
  parameter: string,
  read: T,
): T {
  if (read.problems.length > 0) return read;
  const first = new Map<string, number>();
  read.values.forEach((value: number | string, index: number) => {
    const key = typeof value === "number" ? `n${value}` : `s${value.normalize("NFC")}`;
    const earlier = first.get(key);
    if (earlier === undefined) return void first.set(key, index);
    const shown = shownSweepValue(parameter, value);
    const same = read.values[earlier] === value ? "again" : "in another Unicode form";
    read.problems.push({
      index,
      message: `${JSON.stringify(shown)} is values[${earlier}] ${same}: ${
        same === "again" ? "remove one" : "write both alike and remove one"
      } (each value is one run; repeats: N runs every point N times)`,
    });
  });
  return read;
}

function wordValues(
  parameter: string,
  written: Array<number | string>,
  allowed: readonly string[],
): { values: string[]; problems: SweepValueProblem[] } {
  const problems: SweepValueProblem[] = [];
  written.forEach((value, index) => {
    if (typeof value === "string" && allowed.includes(value)) return;
    problems.push({
      index,
      message: `${JSON.stringify(value)} is not a ${parameter} value; use one of ${allowed.join(", ")}`,
    });
  });
  return { values: written.map(String), problems };
}

/** Line breaks a terminal or a summary line would break at, beside what `terminalSafe` takes out. */
const LINE_BREAK = /[\t\n\r\u0085\u2028\u2029]/;
/** Characters JSON leaves as they are that a terminal hides or reorders: written as escapes in a message. */
const HIDDEN = /[\u0080-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060\u2066-\u2069\ufeff]/g;

/**
 * Whether a word holds a control, line-break or invisible character: a value names its run in the terminal
 * and every output, where such characters forge or hide text.
 */
function unshown(value: string): boolean {
  return LINE_BREAK.test(value) || terminalSafe(value) !== value;
}

function unshownMessage(parameter: string, value: string): string {
  const quoted = JSON.stringify(shownSweepValue(parameter, value)).replace(
    HIDDEN,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${quoted} holds a control, line-break or invisible character (a value names its run in every ` +
    "output): write the value without it";
}

/** Load fields given as durations in files (the others are counts and rates). */
function durationField(field: string): boolean {
  return field === "duration" || FILE_OPTIONS.some(([, o]) => o.file === field && o.kind === "ms" && o.sweep);
}
