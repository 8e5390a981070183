/**
 * @module
 * Picks the load model from the flags by the rule `loadlab attack --help` states (what each tool's users
 * expect) and fills its part of the config. A flag the chosen model would ignore is an error.
 */
import type { ModelInput } from "../../runner/config.ts";
import {
  DEFAULT_DURATION_MS,
  DEFAULT_MAX_CONNECTIONS,
  underOneSendIssues,
} from "../../runner/load/models/fields.ts";
import { LOAD_MODEL_FACTS } from "../../results/load_models.ts";
import { modelsWithField, type Phase } from "../../runner/config_fields.ts";
import type { LoadModel } from "../../results/mod.ts";
import { LOAD_MODELS } from "../../results/schema/keys.ts";
import type { FlagValues } from "../flag_values.ts";
import { parsePhases, parseStages, rampUpStages } from "./schedules.ts";
import type { Stage } from "../../runner/load/models/ramping_connections.ts";
import { UsageError } from "../usage_error.ts";

/** Which models each model-specific flag changes, and what to say when it would not. */
const APPLIES: Record<string, { models: LoadModel[]; fix: string }> = {
  requests: { models: modelsWithField("requests"), fix: "drop -n, or use --model count" },
  rate: {
    models: modelsWithField("phases", "ratePerSec"),
    fix: "drop -R, or use --model rate (open) or throughput (wrk2)",
  },
  "ramp-to": {
    models: modelsWithField("phases"),
    fix: "--ramp-to ramps an open-model rate; use it with -R and without -c",
  },
  phases: {
    models: modelsWithField("phases"),
    fix: "--phases drive the rate model; drop -c, --co and --model",
  },
  stages: { models: modelsWithField("stages"), fix: "--stages ramp connections; drop -R, -n and --model" },
  "ramp-up": {
    models: modelsWithField("stages"),
    fix: "--ramp-up ramps connections up to -c; drop -R, -n and --model",
  },
  connections: {
    // --ramp-up ramps up to -c; with --stages, -c is refused by the ramp's own rule (it names both).
    models: [...modelsWithField("connections"), ...modelsWithField("stages")],
    fix: "the rate model opens connections on demand; cap them with --max-connections",
  },
  "max-connections": {
    models: modelsWithField("maxConnections"),
    fix: "for a fixed number of connections use -c",
  },
  "max-duration": {
    models: modelsWithField("maxDurationMs"),
    fix: "--max-duration bounds a count (-n); a load with -d ends at its duration",
  },
  "pre-connect": {
    models: modelsWithField("preConnect"),
    fix: "closed models open their -c connections at the start, throughput all of them before it",
  },
  co: {
    models: LOAD_MODELS.filter((m) => LOAD_MODEL_FACTS[m].keepsUncorrected),
    fix: "--co means --model throughput; drop one of them",
  },
};

export function resolveLoad(flags: FlagValues, maxSockets?: number): ModelInput {
  const model = decideModel(flags);
  for (const [long, rule] of Object.entries(APPLIES)) {
    if (flags.has(long) && !rule.models.includes(model)) {
      throw new UsageError(`${flags.typed(long)} has no effect with the ${model} model; ${rule.fix}`);
    }
  }
  return FROM_FLAGS[model](flags, maxSockets);
}

/** Each model's config part from the flags, keyed by model so a model without its flags fails type checks. */
const FROM_FLAGS: { [M in LoadModel]: (flags: FlagValues, maxSockets?: number) => ModelInput } = {
  connections: (flags) => ({
    model: "connections",
    connections: flags.positiveInt("connections"),
    durationMs: flags.positiveDurationMs("duration"),
  }),
  throughput(flags) {
    const ratePerSec = flags.rate("rate");
    if (ratePerSec === undefined) throw needs("throughput", "-R <req/s>, e.g. -R 1000 -c 50");
    const connections = flags.positiveInt("connections");
    return { model: "throughput", connections, ratePerSec, durationMs: flags.positiveDurationMs("duration") };
  },
  count(flags, maxSockets) {
    const requests = flags.positiveInt("requests");
    if (requests === undefined) throw needs("count", "-n <requests>, e.g. -n 1000");
    const connections = flags.positiveInt("connections");
    const durationMs = flags.positiveDurationMs("duration");
    const maxDurationMs = flags.positiveDurationMs("max-duration");
    const ratePerSec = flags.rate("rate");
    if (ratePerSec !== undefined) {
      const open = openFlags(flags, maxSockets);
      return { model: "count", requests, connections, ratePerSec, durationMs, maxDurationMs, ...open };
    }
    const open = ["max-connections", "pre-connect"].find((long) => flags.has(long));
    if (open) throw new UsageError(`--${open} is for open pacing only; add -R <req/s>, or use -c for closed`);
    return { model: "count", requests, connections, durationMs, maxDurationMs };
  },
  rate: (flags, maxSockets) => ({
    model: "rate",
    phases: ratePhases(flags),
    ...openFlags(flags, maxSockets),
  }),
  "ramping-connections": (flags) => ({ model: "ramping-connections", stages: rampStages(flags) }),
};

/** The stages of `--stages`, or of `--ramp-up` to `-c` within `-d`. */
function rampStages(flags: FlagValues): Stage[] {
  if (flags.has("stages")) {
    const given = ["ramp-up", "connections", "duration"].find((long) => flags.has(long));
    const why = "conflicts with --stages, whose targets and durations set the connections; drop it";
    if (given) throw new UsageError(`${flags.typed(given)} ${why}`);
    return parseStages(flags.text("stages") ?? "");
  }
  const connections = flags.positiveInt("connections");
  if (connections === undefined || !flags.has("ramp-up")) {
    throw needs("ramping-connections", "--stages, or --ramp-up with -c, e.g. -c 100 --ramp-up 10/s");
  }
  return rampUpStages(flags.text("ramp-up") ?? "", connections, flags.positiveDurationMs("duration"));
}

/** Open pacing's connection flags; the default bound lowered to what the open-file limit allows. */
function openFlags(flags: FlagValues, maxSockets?: number) {
  const maxConnections = flags.positiveInt("max-connections") ??
    (maxSockets === undefined ? undefined : Math.max(1, Math.min(DEFAULT_MAX_CONNECTIONS, maxSockets)));
  return { maxConnections, preConnect: flags.wholeNumber("pre-connect", 0) };
}

function decideModel(flags: FlagValues): LoadModel {
  const explicit = flags.text("model");
  if (explicit !== undefined) {
    const model = LOAD_MODELS.find((m) => m === explicit.toLowerCase());
    if (!model) {
      throw new UsageError(
        `--model ${JSON.stringify(explicit)}: unknown model; use ${LOAD_MODELS.slice(0, -1).join(", ")} ` +
          `or ${LOAD_MODELS.at(-1)}`,
      );
    }
    return model;
  }
  if (flags.has("requests")) return "count";
  if (flags.has("co") || (flags.has("rate") && flags.has("connections"))) return "throughput";
  if (flags.has("rate") || flags.has("ramp-to") || flags.has("phases")) return "rate";
  if (flags.has("stages") || flags.has("ramp-up")) return "ramping-connections";
  return "connections";
}

function ratePhases(flags: FlagValues): Phase[] {
  if (flags.has("phases")) {
    if (flags.has("rate")) throw new UsageError("-R and --phases both set the rate; use one of them");
    if (flags.has("duration")) {
      throw new UsageError(
        `${flags.typed("duration")} conflicts with --phases, whose durations add up; drop it`,
      );
    }
    return parsePhases(flags.text("phases") ?? "", flags.typed("phases"));
  }
  const rampToPerSec = flags.rate("ramp-to", true);
  const ratePerSec = flags.rate("rate", rampToPerSec !== undefined && rampToPerSec > 0);
  if (ratePerSec === undefined) {
    throw rampToPerSec === undefined
      ? needs("rate", "-R <req/s> or --phases, e.g. -R 100")
      : new UsageError("--ramp-to needs a starting rate; add -R, e.g. -R 10 --ramp-to 100");
  }
  const durationMs = flags.positiveDurationMs("duration") ?? DEFAULT_DURATION_MS;
  // Named by the flags the user wrote, not by the phases they became.
  const arrivals = ((ratePerSec + (rampToPerSec ?? ratePerSec)) * durationMs) / 2000;
  const [under] = underOneSendIssues(arrivals, []);
  if (under !== undefined) throw new UsageError(`-R over -d (${durationMs / 1000} s): ${under.message}`);
  return [rampToPerSec === undefined ? { durationMs, ratePerSec } : { durationMs, ratePerSec, rampToPerSec }];
}

function needs(model: LoadModel, what: string): UsageError {
  return new UsageError(`the ${model} model needs ${what}`);
}
