/**
 * @module
 * The attack flags' config validated by runner/config.ts, each issue named by the flag that sets it.
 */
import { type AttackConfig, type AttackConfigInput, parseAttackConfig } from "../../runner/config.ts";
import { ConfigError } from "../../validation/config_error.ts";
import { UsageError } from "../usage_error.ts";
import { ATTACK_FLAGS } from "./flags.ts";
import type { FlagSpec } from "../argv.ts";
import type { FlagValues } from "../flag_values.ts";

/** Config field -> the flags that set it, from the table's `config`. */
const FLAGS_OF_FIELD = new Map<string, FlagSpec[]>();
for (const spec of ATTACK_FLAGS) {
  for (const field of spec.config ?? []) {
    FLAGS_OF_FIELD.set(field, [...FLAGS_OF_FIELD.get(field) ?? [], spec]);
  }
}

/** The flag behind a config issue's path, as the user typed it, else its first spelling. */
function flagOf(path: string, flags: FlagValues): string | undefined {
  const specs = FLAGS_OF_FIELD.get(path) ?? FLAGS_OF_FIELD.get(/^[^.[]*(\.[^.[]*)?/.exec(path)![0]) ??
    FLAGS_OF_FIELD.get(/^[^.[]*/.exec(path)![0]);
  if (specs === undefined) return undefined;
  const spec = specs.find((s) => flags.has(s.long)) ?? specs[0];
  return flags.has(spec.long) ? flags.typed(spec.long) : spec.short ? `-${spec.short}` : `--${spec.long}`;
}

/** Runs the shared zod validation; its issues become one line that names flags, not config paths. */
export function toConfig(input: AttackConfigInput, flags: FlagValues): AttackConfig {
  try {
    return parseAttackConfig(input);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const lines = err.issues.map(({ path, message }) => {
      return `${flagOf(path, flags) ?? path}: ${message}`;
    });
    throw new UsageError(`${lines.join("; ")}; see loadlab attack --help`, { cause: err });
  }
}
