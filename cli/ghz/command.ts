/**
 * @module
 * `loadlab ghz [flags] HOST`: ghz's own command line, read as ghz reads it and run as the `attack` its
 * keys stand for (config.ts), with ghz's report and exit codes (2: what loadlab refuses to run otherwise).
 */
import { type FlagSpec, tokenize } from "../argv.ts";
import { runCommand } from "../command_errors.ts";
import { HelpRequested, UsageError } from "../usage_error.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { CallKindNeeded, fileText, GHZ_OPTIONS, ghzRun, type MethodData, readConfig } from "./config.ts";
import { attack } from "../attack/command.ts";
import { defined } from "../../validation/defined.ts";
import { EXIT } from "../exit_codes.ts";

const BOOLEANS = new Set(Object.keys(GHZ_OPTIONS).filter((k) => GHZ_OPTIONS[k].go === "bool"));
/** ghz's flags: its options' but a config file's own, their long names its config file's keys. */
const FLAGS: FlagSpec[] = [
  { long: "help", short: "h", takesValue: false },
  // ghz's help in its long and man page forms: loadlab's help.
  { long: "help-long", takesValue: false },
  { long: "help-man", takesValue: false },
  { long: "version", short: "v", takesValue: false },
  { long: "config", takesValue: true, example: "ghz.json" },
  ...Object.entries(GHZ_OPTIONS).filter(([, o]) => !o.fileOnly).map(([long, { short }]) => ({
    long,
    ...defined({ short }),
    takesValue: !BOOLEANS.has(long),
    // `--no-X` is read as `--X=false`; a flag given twice is ghz's error.
    optionalValue: BOOLEANS.has(long),
    repeatable: true,
    example: "VALUE",
  })),
];
const VALUED = new Set(FLAGS.filter((f) => f.takesValue).flatMap((f) => [`--${f.long}`, `-${f.short}`]));

const HELP = `usage: loadlab ghz [<flags>] <host>

ghz's command line, run by loadlab: the same flags, defaults (-n 200, -c 50, --connections 1, -t 20s) and
report (-O summary|json|pretty|csv|influx-summary|influx-details, -o FILE; -O html: loadlab's report.html
at -o FILE or on stdout). docs/GRPC.md says what each flag does here and which ones are refused (exit 2)
rather than run otherwise than ghz runs them.`;

/** The attack arguments of a ghz command line; `CallKindNeeded` when only reflection can tell. */
export function ghzCommandLine(argv: string[], reflected?: MethodData): ReturnType<typeof ghzRun> {
  const raw = tokenize(ghzWords(argv), FLAGS, {}, "ghz", HELP);
  if (raw.values.has("help-long") || raw.values.has("help-man")) throw new HelpRequested(HELP);
  if (raw.values.has("version")) {
    throw new HelpRequested(`loadlab ${denoJson.version}, reading ghz's command line`);
  }
  if (raw.positionals.length > 1) {
    throw new UsageError(`unexpected ${raw.positionals[1]}: ghz takes one host, e.g. 127.0.0.1:50051`);
  }
  const path = raw.values.get("config")?.[0];
  const config: Record<string, unknown> = path === undefined ? {} : readConfig(path, "--config");
  for (const [long, values] of raw.values) {
    if (values.length > 1) throw new UsageError(`flag '${long}' cannot be repeated, as ghz reads its flags`);
    // As ghz: a blank -d, -m, --tags, --reflect-metadata, file or -o is none (and a config's none too).
    const blank = /^(data|metadata|tags|reflect-metadata|(data|metadata|binary)-file|output)$/.test(long) &&
      values[0].trim() === "";
    if (long !== "config") {
      config[long] = BOOLEANS.has(long) ? values[0] !== "false" : blank ? undefined : values[0];
    }
  }
  if (raw.positionals[0] !== undefined) config.host = raw.positionals[0];
  // As ghz v0.93: --data=@ is no data (the empty message; stdin unread, none in the report's options).
  if (config.data === "@") {
    console.error("loadlab ghz: --data=@ is the empty message, as in ghz v0.93; -D /dev/stdin reads stdin");
    config.data = undefined;
  }
  return ghzRun(config, reflected);
}

/**
 * ghz's words as its flag parser (kingpin) reads them, before `--`: `@FILE` is the file's lines, each a
 * word (`#` lines skipped); `-en 10` is `-e -n 10`; `--no-X` is a boolean X's false.
 */
function ghzWords(argv: string[]): string[] {
  const words = [...argv], out: string[] = [];
  for (let files = 0; words.length > 0;) {
    const word = words.shift()!;
    const bool = /^--(no-)?([^=]+)(=?)/.exec(word);
    const short = /^-([behv])([^-].*)$/.exec(word);
    // As kingpin: a short flag's joined value is all after its letter, `=` too (`-O=json` is "=json").
    const joined = /^(-\w)(=.*)$/.exec(word);
    if (word === "--") return [...out, word, ...words];
    // As kingpin: "-" alone after a flag is its value, the empty one (`-D -` is no file, not stdin).
    if (word === "-" && VALUED.has(out.at(-1)!)) {
      out.push("");
      continue;
    }
    // As kingpin: a word starting with "-" (but "-" alone) is a flag, never the value before it.
    if (VALUED.has(word) && /^-./.test(words[0] ?? "")) {
      throw new UsageError(`expected argument for flag '${word}' (write ${word}=${words[0]})`);
    }
    if (word === "@") {
      throw new UsageError("@: names no file of ghz's words (-D /dev/stdin reads stdin's message)");
    }
    if (bool !== null && BOOLEANS.has(bool[2])) {
      if (bool[3] !== "") throw new UsageError(`${word}: ghz's --${bool[2]} takes no value`);
      out.push(bool[1] ? `--${bool[2]}=false` : word);
    } else if (short !== null) words.unshift(`-${short[1]}`, `-${short[2]}`);
    else if (joined !== null && VALUED.has(joined[1])) out.push(...joined.slice(1));
    else if (!word.startsWith("@")) out.push(word);
    else if (++files > 100) throw new UsageError(`${word}: ghz's @FILE words nest past 100 files`);
    else {
      const text = fileText(word.slice(1), "@", "a file of ghz's words, one a line").replace(/\n$/, "");
      words.unshift(...text.split("\n").map((l) => l.replace(/\r$/, "")).filter((l) => !l.startsWith("#")));
    }
  }
  return out;
}

/** The attack's flags a refusal may name, as ghz's: its -d is the data, --connections the connections. */
const GHZ_FLAG_OF: Record<string, string> = {
  "-b": "-d",
  "-R": "--rps",
  "-c": "--connections",
  "--max-connections": "--connections",
};
/** An attack flag where a refusal names one: at its head, in its example, in what fits. */
const ATTACK_FLAG = new RegExp(`(?<=^|e\\.g\\. |at most )(${Object.keys(GHZ_FLAG_OF).join("|")})(?= )`, "g");

export function runGhzCommand(argv: string[]): Promise<number> {
  return runCommand("ghz", async () => {
    try {
      // The server's reflection is asked only when the data's kind needs it.
      const line = await Promise.try(() => ghzCommandLine(argv)).catch(async (err) => {
        if (!(err instanceof CallKindNeeded)) throw err;
        return ghzCommandLine(argv, await err.method());
      });
      const code = await attack(line.attack, line).catch((err) => {
        // Past ghz's reading, a refusal names the ghz flags the user gave, not the attack's they became.
        if (err instanceof Error) err.message = err.message.replace(ATTACK_FLAG, (f) => GHZ_FLAG_OF[f] ?? f);
        throw err;
      });
      // As ghz: -O html without -o is the page on stdout.
      if (line.page !== undefined) console.log(Deno.readTextFileSync(line.page).replace(/\n$/, ""));
      // ghz's: a run that ended is 0 whatever its calls got; a report not written is its error, 1.
      return code === EXIT.noResponse ? EXIT.ok : code === EXIT.outputNotWritable ? 1 : code;
    } catch (err) {
      throw ghzError(err);
    }
  });
}

/** ghz exits 1 for what it refuses or cannot write; loadlab's own refusals (exit code 2 given) stay 2. */
function ghzError(err: unknown): unknown {
  const name = err instanceof Error ? err.name : "";
  if (["UsageError", "ConfigError", "OutputError"].includes(name) && !(err as UsageError).exitCode) {
    return new UsageError((err as Error).message, { cause: err, exitCode: 1 });
  }
  return err;
}
