/**
 * @module
 * One option declared once: config schemas, flag parsing and `--help` derive from its rows.
 */
import type { z } from "zod";

/**
 * One option: how it is written (`ms` duration, `rate` per second, `word`, `text`, `path`, comma `list`, else
 * a whole number), its key in a file's load (`sweep`: sweeps may vary it), its flag, zod field and help.
 */
export interface Option {
  kind?: "ms" | "rate" | "word" | "text" | "path" | "list";
  file?: string;
  sweep?: boolean;
  flag?: string;
  aliases?: readonly string[];
  repeatable?: boolean;
  example?: string;
  /** A field of the models that take it (runner/load/models/), not of every config. */
  model?: true;
  schema: z.ZodType;
  help: readonly string[];
}

export function option<const N extends Omit<Option, "schema" | "help">, S>(
  names: N,
  schema: S,
  ...help: string[]
) {
  return { ...names, schema, help };
}

/** The zod fields of a table of rows, by key: what a config's schema spreads. */
export function fieldsOf<T extends Record<string, Option>>(rows: T): { [K in keyof T]: T[K]["schema"] } {
  return Object.fromEntries(Object.entries(rows).map(([key, o]) => [key, o.schema])) as never;
}
