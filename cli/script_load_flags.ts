/**
 * @module
 * The load of a session script or a k6 script from `loadlab run`'s command line, so a user changes the
 * load without editing the file: k6's `--vus 50 --duration 30s`, `--iterations`, `--stages 30s:50,1m:0`
 * and `-e KEY=VALUE`, and Locust's `-c 50 --ramp-up 10/s -d 20s` (`-c` is `--vus`). For a k6 script the
 * flags override its `options` as k6's flags do; for a TypeScript session they replace its loads. `-e`
 * sets the variable in loadlab's environment, which sessions read as `s.env` and k6 scripts as `__ENV`.
 * With an experiment file the flags are refused: its loads say the load (`--set` changes them).
 */
import type { FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import { parseDurationMs } from "./duration.ts";
import { parseStages, rampUpStages } from "./stages.ts";
import { UsageError } from "./usage_error.ts";
import type { Stage } from "../runner/load/models/ramping_connections.ts";

export const SCRIPT_LOAD_FLAGS: FlagSpec[] = [
  { long: "vus", short: "c", takesValue: true, example: "50" },
  { long: "duration", short: "d", takesValue: true, example: "30s" },
  { long: "iterations", takesValue: true, example: "100" },
  { long: "max-duration", takesValue: true, example: "10m" },
  { long: "stages", takesValue: true, example: "30s:50,1m:50,30s:0" },
  { long: "ramp-up", takesValue: true, example: "10/s" },
  { long: "env", short: "e", takesValue: true, repeatable: true, example: "BASE=http://127.0.0.1:8080" },
];

export const SCRIPT_LOAD_HELP =
  `Scripts (session.ts or a k6 script.js) take their load from the command line too:
  -c, --vus <n>             virtual users (connections); over a k6 script's options as k6's --vus
  -d, --duration <d>        how long, e.g. 30s
  --iterations <n>          this many sessions (k6 iterations), shared by the users
  --max-duration <d>        with --iterations: stop there, flagged, if not done (10m)
  --stages D:N,...          ramping users, k6's stages, e.g. 30s:50,1m:50,30s:0
  --ramp-up <r/s>           with -c: Locust's spawn rate, e.g. -c 50 --ramp-up 10/s -d 20s
  -e, --env KEY=VALUE       a variable for the script (s.env, k6's __ENV; repeatable)`;

/** The load flags as given (none given: every field undefined, `env` empty). */
export interface ScriptLoadArgs {
  vus?: number;
  durationMs?: number;
  iterations?: number;
  /** `--max-duration`: with `--iterations`, the count's bound (k6's maxDuration). */
  maxDurationMs?: number;
  stages?: Stage[];
  env: Record<string, string>;
}

/** Reads the script load flags; `--ramp-up` becomes stages (it needs `-c`). */
export function scriptLoadArgs(flags: FlagValues): ScriptLoadArgs {
  const whole = (name: string) => {
    const text = flags.text(name);
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text) || Number(text) < 1) {
      throw new UsageError(`--${name} "${text}": a whole number >= 1, e.g. --${name} 50`);
    }
    return Number(text);
  };
  const vus = whole("vus"), iterations = whole("iterations");
  const durationText = flags.text("duration");
  const durationMs = durationText === undefined ? undefined : parseDurationMs(durationText, "--duration");
  const maxText = flags.text("max-duration");
  const maxDurationMs = maxText === undefined ? undefined : parseDurationMs(maxText, "--max-duration");
  if (maxDurationMs !== undefined && iterations === undefined) {
    throw new UsageError("--max-duration bounds --iterations: give --iterations N with it, or use -d");
  }
  let stages = flags.text("stages") === undefined ? undefined : parseStages(flags.text("stages")!);
  const rampUp = flags.text("ramp-up");
  if (rampUp !== undefined) {
    if (vus === undefined) {
      throw new UsageError("--ramp-up is a spawn rate up to -c users: give -c N with it");
    }
    if (stages !== undefined) throw new UsageError("give --stages or --ramp-up, not both");
    stages = rampUpStages(rampUp, vus, durationMs);
  }
  const env: Record<string, string> = {};
  for (const pair of flags.all("env")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`-e "${pair}": write KEY=VALUE, e.g. -e BASE=http://127.0.0.1:8080`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return {
    vus,
    durationMs,
    iterations,
    stages,
    env,
    ...(maxDurationMs !== undefined ? { maxDurationMs } : {}),
  };
}

/** Whether any load flag (not `-e`) was given. */
export function hasLoadFlags(a: ScriptLoadArgs): boolean {
  return a.vus !== undefined || a.durationMs !== undefined || a.iterations !== undefined ||
    a.stages !== undefined;
}

/** The experiment load (file form) the flags give a TypeScript session: replaces the script's loads. */
export function sessionLoadOf(a: ScriptLoadArgs): Record<string, unknown> {
  const ms = (n: number) => `${n}ms`;
  if (a.stages !== undefined) {
    return {
      model: "connections",
      stages: a.stages.map((s) => ({ duration: ms(s.durationMs), target: s.target })),
    };
  }
  if (a.iterations !== undefined) {
    return {
      model: "count",
      requests: a.iterations,
      connections: a.vus ?? 1,
      ...(a.durationMs !== undefined ? { duration: ms(a.durationMs) } : {}),
      ...(a.maxDurationMs !== undefined ? { maxDuration: ms(a.maxDurationMs) } : {}),
    };
  }
  return { model: "connections", connections: a.vus ?? 10, duration: ms(a.durationMs ?? 10_000) };
}
