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

/** Parses one `--out KIND=URL` (`typed` is how the flag was spelled); throws `UsageError`. */
export function parseMetricsOut(typed: string, value: string): MetricsOutput {
  const parsed = parseMetricsOutput(value);
  if (typeof parsed === "string") throw new UsageError(`${typed} ${withoutPassword(value)}: ${parsed}`);
  return parsed;
}

/** `outputs` (parsed from `values`, in order) if no output is given twice, else a `UsageError` naming it. */
export function distinctMetricsOuts(
  typed: string,
  values: string[],
  outputs: MetricsOutput[],
): MetricsOutput[] {
  outputs.forEach((_, i) => {
    const problem = repeatedOutput(outputs, i);
    if (problem) throw new UsageError(`${typed} ${withoutPassword(values[i])}: ${problem}`);
  });
  return outputs;
}
