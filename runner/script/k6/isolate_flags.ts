/**
 * @module
 * k6's command-line flags that reach a k6 script's isolates (`--tag`, `--http-debug`, `--out json=FILE`):
 * `loadlab run` sets them in its environment as one JSON value, `LOADLAB_K6_FLAGS`, before the script is
 * first imported, and every isolate of the process reads it once, as it reads the `-e` variables.
 */

/** The environment variable that carries them. */
export const K6_FLAGS_ENV = "LOADLAB_K6_FLAGS";

/** The flags an isolate honours (none given: every field undefined). */
export interface IsolateFlags {
  /** `--tag NAME=VALUE`: over the script's `options.tags`, on every request and sample. */
  tags?: Record<string, string>;
  /** `--http-debug[=full]`. */
  httpDebug?: "headers" | "full";
  /** `--out json=FILE`: where the samples' NDJSON lines are appended. */
  jsonOut?: string;
  /** `--no-thresholds`: the NDJSON's `Metric` lines name no threshold. */
  noThresholds?: boolean;
}

/** This isolate's flags. */
export const isolateFlags: Readonly<IsolateFlags> = readFlags();

function readFlags(): IsolateFlags {
  let text: string | undefined;
  try {
    text = Deno.env.get(K6_FLAGS_ENV);
  } catch {
    return {};
  }
  if (text === undefined || text === "") return {};
  try {
    const flags = JSON.parse(text);
    return typeof flags === "object" && flags !== null ? flags : {};
  } catch {
    return {};
  }
}
