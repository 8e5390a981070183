/**
 * @module
 * `--out KIND=URL` on `attack` and `run`, which shares `attack`'s `-o FILE`.
 */
import {
  type MetricsOutput,
  parseMetricsOutput,
  repeatedOutput,
  withoutPassword,
} from "../../results/export/metrics_output.ts";
import { UsageError } from "../usage_error.ts";

/** `--out KIND=URL` values parsed (`typed`: the flag as spelled); a bad or repeated one is a `UsageError`. */
export function parseMetricsOuts(typed: string, values: string[]): MetricsOutput[] {
  const outputs = values.map((value) => {
    const parsed = parseMetricsOutput(value);
    if (typeof parsed === "string") throw new UsageError(`${typed} ${withoutPassword(value)}: ${parsed}`);
    return parsed;
  });
  outputs.forEach((_, i) => {
    const problem = repeatedOutput(outputs, i);
    if (problem) throw new UsageError(`${typed} ${withoutPassword(values[i])}: ${problem}`);
  });
  return outputs;
}
