/**
 * @module
 * The getopt-style tokenizer every command shares, and the `--help` rows it prints, from one flag table.
 */
import { defined } from "../validation/defined.ts";
import { HelpRequested, UsageError } from "./usage_error.ts";
import { nearest } from "../validation/suggest.ts";

/** One accepted flag. `long` is the key of the parsed values. */
export interface FlagSpec {
  long: string;
  short?: string;
  /** Other spellings of the same flag: a letter is a short one (k6's `-u` beside `-c`), else a long one. */
  aliases?: readonly string[];
  takesValue: boolean;
  /** With `takesValue: false`: a value may still follow `=` (`--compress=gzip`); bare, it reads as "". */
  optionalValue?: boolean;
  repeatable?: boolean;
  /** Takes the values after its own too, up to the next flag (Locust's `--tags a b`); implies repeatable. */
  manyValues?: boolean;
  /** Example value for "missing value" messages, e.g. `50` for `-c`. */
  example?: string;
  /** The engine config fields it sets (`connections`, `tls.caFile`): their errors name the flag. */
  config?: readonly string[];
  /** Its `--help` column as declared (`-c, --concurrency N`), and the lines of text beside it. */
  usage?: string;
  help?: readonly string[];
}

/** What a flag's usage does not say: long aliases (k6's, ghz's), repeats, an example, config fields. */
type FlagExtras = Pick<FlagSpec, "aliases" | "repeatable" | "manyValues" | "example" | "config">;

/** A flag as `--help` shows it: `usage` gives its spellings and whether it takes a value, `help` its text. */
export function flag(usage: string, extras: FlagExtras, help: readonly string[]): FlagSpec {
  const parts = /^((?:-\w, )*)--([\w-]+)(\[=[^\]]+\])?( .+)?$/.exec(usage);
  if (parts === null) throw new Error(`not a flag's usage: ${usage}`);
  const [short, ...letters] = parts[1].split(", ").filter((s) => s !== "").map((s) => s.slice(1));
  const aliases = [...letters, ...(extras.aliases ?? [])];
  return {
    long: parts[2],
    takesValue: parts[4] !== undefined,
    ...defined({ short, optionalValue: parts[3] !== undefined || undefined }),
    ...extras,
    ...defined({ aliases: aliases.length ? aliases : undefined }),
    usage,
    help,
  };
}

/** A command's table: its flags in `--help` order, and the lines of text between them. */
export type FlagTable = ReadonlyArray<FlagSpec | string>;

/** Where `--help` puts each flag and its text; `shortColumn`: long-only flags line up after `-x, `. */
interface HelpLayout {
  flagAt: number;
  textAt: number;
  shortColumn?: boolean;
}

export function flagsOf(table: FlagTable): FlagSpec[] {
  return table.filter((row) => typeof row !== "string");
}

/** The `--help` lines of `table`: each flag, then its text from `textAt` (below it if the flag is wider). */
export function helpOf(table: FlagTable, layout: HelpLayout): string {
  return table.flatMap((row) => typeof row === "string" ? [row] : flagHelp(row, layout)).join("\n");
}

function flagHelp(spec: FlagSpec, { flagAt, textAt, shortColumn }: HelpLayout): string[] {
  if (spec.usage === undefined || spec.help === undefined) return [];
  const indent = shortColumn && spec.usage.startsWith("--") ? 4 : 0;
  const flag = " ".repeat(flagAt + indent) + spec.usage;
  const text = spec.help.map((line) => " ".repeat(textAt) + line);
  if (flag.length >= textAt) return [flag, ...text];
  return [(flag + (text[0] ?? "").slice(flag.length)).trimEnd(), ...text.slice(1)];
}

/** Reads the arguments of a command that takes none: `-h`/`--help` throws `HelpRequested`, else exit 2. */
export function noArguments(argv: string[], command: string, help: string): void {
  const raw = tokenize(argv, [{ long: "help", short: "h", takesValue: false }], {}, command, help);
  if (raw.positionals.length) {
    throw new UsageError(`takes no arguments (found ${raw.positionals.join(" ")}); see --help`);
  }
}

/** `text` broken at spaces into lines of at most `columns` (a longer word stays whole). */
export function wrapped(text: string, columns: number): string[] {
  return text.match(new RegExp(`\\S.{0,${columns - 1}}(?= |$)|\\S+`, "g")) ?? [];
}

/** Flags given, keyed by long name, with how the user spelled each. */
export interface RawArgs {
  values: Map<string, string[]>;
  spelled: Map<string, string>;
  positionals: string[];
}

/**
 * Sorts `argv` into flag values and positionals; with `help`, `-h`/`--help` throws `HelpRequested`;
 * `skipUnknown` passes over flags not in `specs` (to find one flag before all are known).
 */
export function tokenize(
  argv: string[],
  specs: FlagSpec[],
  hints: Record<string, string> = {},
  command = "attack",
  help?: string,
  skipUnknown = false,
): RawArgs {
  const raw: RawArgs = { values: new Map(), spelled: new Map(), positionals: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      raw.positionals.push(...argv.slice(i + 1));
      break;
    }
    const dashes = /^[\u2010-\u2015\u2212\uFE63\uFF0D]+(?=\p{L})/u.exec(arg)?.[0];
    if (dashes !== undefined) {
      const name = arg.slice(dashes.length), code = dashes.codePointAt(0)!.toString(16).toUpperCase();
      throw new UsageError(
        `"${arg}" starts with U+${code}, a dash look-alike (pasted from a document?), not "-"; ` +
          `write ${name.length === 1 ? "-" : "--"}${name}`,
      );
    }
    // Go's flag package spells long flags with one dash (hey's -cpus, -h2): read those this table knows.
    const go = /^-(\w[\w-]+)(=|$)/.exec(arg)?.[1] ?? "";
    const split = splitFlag(
      specs.some((s) => s.long === go || s.aliases?.includes(go)) || hints[`--${go}`] ? `-${arg}` : arg,
    );
    if (!split) {
      raw.positionals.push(arg);
      continue;
    }
    const spec = specs.find((s) =>
      (split.isLong ? s.long === split.name : s.short === split.name) ||
      (s.aliases?.includes(split.name) && (split.name.length === 1) !== split.isLong)
    );
    if (!spec && skipUnknown) continue;
    if (!spec) throw unknownFlag(split, specs, hints, command);
    const typed = split.isLong ? `--${split.name}` : `-${split.name}`;
    let value = split.inlineValue;
    if (!spec.takesValue && !spec.optionalValue && value !== undefined) {
      throw new UsageError(`${typed} takes no value; write just ${typed}`);
    }
    if (spec.takesValue && value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || splitFlag(next)) {
        throw new UsageError(`${typed}: missing value; e.g. ${typed} ${spec.example ?? "<value>"}`);
      }
      value = next;
      i++;
    }
    record(raw, spec, typed, value ?? "");
    // `--tags=a,b`: its values end there, as argparse's (the next argument is no tag).
    while (spec.manyValues && !split.inlineValue && argv[i + 1] !== undefined && !splitFlag(argv[i + 1])) {
      record(raw, spec, typed, argv[++i]);
    }
  }
  if (help !== undefined && raw.values.has("help")) throw new HelpRequested(help);
  return raw;
}

function record(raw: RawArgs, spec: FlagSpec, typed: string, value: string): void {
  const previous = raw.values.get(spec.long);
  // Non-repeatable flags follow the usual "last one wins", so aliases and wrappers can override.
  raw.values.set(spec.long, spec.repeatable && previous ? [...previous, value] : [value]);
  raw.spelled.set(spec.long, typed);
}

function splitFlag(arg: string): { name: string; isLong: boolean; inlineValue?: string } | undefined {
  if (arg.startsWith("--") && arg.length > 2) {
    const eq = arg.indexOf("=");
    return eq < 0
      ? { name: arg.slice(2), isLong: true }
      : { name: arg.slice(2, eq), isLong: true, inlineValue: arg.slice(eq + 1) };
  }
  // A lone "-" and negative numbers ("-5") are values, not flags.
  if (arg.startsWith("-") && arg.length > 1 && !/^-[\d.]/.test(arg)) {
    const rest = arg.slice(2);
    return { name: arg[1], isLong: false, inlineValue: rest === "" ? undefined : rest.replace(/^=/, "") };
  }
  return undefined;
}

/** An unknown flag: another tool's advice when there is one, else the nearest long flag when one is close. */
function unknownFlag(
  split: { name: string; isLong: boolean },
  specs: FlagSpec[],
  hints: Record<string, string>,
  command: string,
): UsageError {
  const flag = split.isLong ? `--${split.name}` : `-${split.name}`;
  const longs = specs.flatMap((s) => [s.long, ...(s.aliases ?? []).filter((a) => a.length > 1)]);
  const near = split.isLong && hints[flag] === undefined ? nearest(split.name, longs) : undefined;
  if (near !== undefined) {
    return new UsageError(`${flag}: unknown flag; did you mean --${near}? (loadlab ${command} --help)`);
  }
  return new UsageError(`${flag}: unknown flag; ${hints[flag] ?? `see loadlab ${command} --help`}`);
}
