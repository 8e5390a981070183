/**
 * @module
 * k6's flags that reach a k6 script's isolates (`--tag`, `--http-debug`, `--out json|csv|influxdb`, a load of
 * its own), handed to each before it imports the script (../isolate_inputs.ts).
 */
import { inputs } from "../isolate_inputs.ts";

type Executors = Record<string, { executor?: string }>;
export type IsolateOptions = { scenarios?: Executors; rps?: number; noSetup?: boolean; noTeardown?: boolean };

export interface IsolateFlags {
  /** `--tag NAME=VALUE`: over the script's `options.tags`, on every request and sample. */
  tags?: Record<string, string>;
  httpDebug?: "headers" | "full";
  /** `--out json=FILE`: where the samples' NDJSON lines are appended. */
  jsonOut?: string;
  /** `--out csv`: the file (`.gz`: gzipped), its tag columns, k6's time format, how often it is written. */
  csvOut?: { file: string; columns: string[]; timeFormat: string; saveIntervalMs: number };
  /** `--out influxdb`: where and how each batch of lines is POSTed, how many at once, the tags as fields. */
  influxOut?: {
    writeUrl: string;
    headers: Record<string, string>;
    insecure: boolean;
    pushIntervalMs: number;
    concurrentWrites: number;
    /** Tags sent as fields, each as `string`, `int`, `float` or `bool` when it parses as one. */
    tagsAsFields: Record<string, string>;
  };
  /** `--console-output FILE`: where console lines are appended. */
  consoleOutput?: string;
  /** `--compatibility-mode`: `base` has no `global` (k6's other modes alias it to `globalThis`). */
  compatibilityMode?: string;
  /** k6's load flags or `K6_*` variables replaced the script's scenarios: VUs run the default function. */
  flagsLoad?: boolean;
  /** k6's options as the run applies them (`exec.test.options`): a shortcuts' load as scenario `default`. */
  options?: IsolateOptions;
  /** Whether a summary shown or written has k6's request phases (`http_req_waiting`, ...): then timed. */
  phases?: boolean;
  /** When loadlab read the script's options (epoch ms): `exec.instance.currentTestRunDuration` from it. */
  testStartMs?: number;
  /** `--include-system-env-vars=false`: `__ENV`'s variables (the `-e` ones), not the process's. */
  env?: Record<string, string>;
  /** `--secret-source` lines as given (k6/secrets reads its sources from them: secrets.ts). */
  secretSources?: string[];
}

/** This isolate's flags (in loadlab's own isolate, none). */
export const isolateFlags: Readonly<IsolateFlags> = inputs.k6;
