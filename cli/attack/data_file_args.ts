/**
 * @module
 * `loadlab attack --data-file FILE`: rows filling the `{{ name }}` placeholders of the requests.
 */
import { basename } from "node:path";
import { flag, type FlagSpec } from "../argv.ts";
import type { FlagValues } from "../flag_values.ts";
import { UsageError } from "../usage_error.ts";
import type { RequestInput } from "./request_args.ts";
import type { DataSpec } from "../../runner/session_schema.ts";
import { placeholdersOf } from "../../runner/http/template.ts";
import { DataFileError, dataSourceSchema, readDataFile } from "../../scenarios/data_sources.ts";

export const DATA_FILE_FLAGS: FlagSpec[] = [
  flag("--data-file FILE", { example: "users.csv", config: ["data.file"] }, [
    "rows filling {{ name }} placeholders in the URL's path and query, -H",
    "values and -b (a gRPC message and its metadata too), one row per",
    "request: a CSV with a header row, a JSON array of objects or NDJSON",
    "(.ndjson, .jsonl), read as an experiment's data: source. A name no",
    "column has is refused; {{ $randomNumber(1,9) }} and",
    "{{ $randomString(8) }} need no file (docs/EXPERIMENTS.md)",
  ]),
  flag("--data-order O", { example: "random", config: ["data.order"] }, [
    "sequential, random, or unique (each row once across workers and",
    "segments)                                           [sequential]",
  ]),
  flag("--data-when-done W", { example: "stop", config: ["data.whenDone"] }, [
    "when a worker's rows run out: wrap, or stop (unique's only one)",
  ]),
  flag("--data-fields A,B", { example: "user,password", config: ["data.fields"] }, [
    "a CSV without a header row: its column names (--data-skip-header",
    "when its first row is a header all the same)",
  ]),
  { long: "data-skip-header", takesValue: false, config: ["data.skipHeader"] },
];

/** The data source's field -> the flag that sets it, from the rows' `data.*` config fields. */
const FIELD_FLAGS: Record<string, string> = Object.fromEntries(
  DATA_FILE_FLAGS.flatMap((f) =>
    (f.config ?? []).map((field) => [field.slice("data.".length), `--${f.long}`])
  ),
);

/** The rows of `--data-file` as the engine takes them, or undefined without it. */
export function dataFileArgs(flags: FlagValues, url: URL): DataSpec | undefined {
  const file = flags.path("data-file");
  if (file === undefined) {
    const given = DATA_FILE_FLAGS.find((f) => flags.has(f.long));
    if (given) throw new UsageError(`--${given.long} goes with --data-file FILE, e.g. --data-file users.csv`);
    return undefined;
  }
  if (url.protocol === "ws:" || url.protocol === "wss:") {
    throw new UsageError(
      "--data-file fills HTTP requests and gRPC calls; a ws:// run sends its messages as given",
    );
  }
  const fields = flags.text("data-fields")?.split(",").map((f) => f.trim());
  const parsed = dataSourceSchema.safeParse({
    file,
    order: flags.text("data-order"),
    whenDone: flags.text("data-when-done"),
    ...(fields !== undefined ? { fields } : {}),
    ...(flags.has("data-skip-header") ? { skipHeader: true } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = FIELD_FLAGS[String(issue.path[0])] ?? "--data-file";
    // The schema's messages name the file's fields; a command line has flags.
    const message = issue.message.replace(/\b(whenDone|skipHeader|fields)\b/g, (f) => FIELD_FLAGS[f]);
    throw new UsageError(`${flag}: ${message}`, { cause: parsed.error });
  }
  const source = parsed.data;
  try {
    const table = readDataFile(file, source);
    return { name: basename(file), ...table, order: source.order, whenDone: source.whenDone };
  } catch (err) {
    if (err instanceof DataFileError) throw new UsageError(`--data-file ${err.message}`, { cause: err });
    throw err;
  }
}

/** Refuses a placeholder of `texts` that names no column of `data` or is not one at all. */
export function checkPlaceholderNames(
  texts: ReadonlyArray<readonly [string, string]>,
  data: DataSpec | undefined,
): void {
  for (const [flag, text] of texts) {
    for (const p of placeholdersOf(text)) {
      if (typeof p === "string") throw new UsageError(`${flag}: ${p}`);
      if (p.kind !== "name" || data?.columns.includes(p.name)) continue;
      const from = data === undefined
        ? "there is no --data-file to fill it"
        : `${data.name} has no such column (its columns: ${someOf(data.columns)})`;
      throw new UsageError(
        `${flag}: {{ ${p.name} }} is unknown: ${from}; use a column of --data-file FILE, ` +
          "or a built-in function ($randomNumber(min,max), $randomString(n))",
      );
    }
  }
}

/** `checkPlaceholderNames` over a request mix's paths (given by `pathFlag`), headers and bodies. */
export function checkMixPlaceholders(mix: readonly RequestInput[], pathFlag: string, data?: DataSpec): void {
  const decoder = new TextDecoder();
  checkPlaceholderNames(
    mix.flatMap((r) => [
      [pathFlag, r.path ?? ""] as const,
      ...(r.headers ?? []).map(([name, value]) => ["-H", `${name}: ${value}`] as const),
      ...(r.body instanceof Uint8Array ? [["-b", decoder.decode(r.body)] as const] : []),
    ]),
    data,
  );
}

/** The first few of `names` and how many more, so a wide file's message stays one short line. */
function someOf(names: readonly string[], shown = 10): string {
  const more = names.length - shown;
  return names.slice(0, shown).join(", ") + (more > 0 ? ` and ${more.toLocaleString("en-US")} more` : "");
}
