/**
 * @module
 * One attack's validated config: a zod union on `model`, a field the model would ignore rejected.
 */
import { z } from "zod";
import type { LoadModel } from "../results/mod.ts";
import { validate } from "../validation/mod.ts";
import { ConfigError } from "../validation/config_error.ts";
import { modelDef } from "./load/models/mod.ts";
import { MAX_RATE_PER_SEC } from "./load/models/fields.ts";
import { commonFields, MODEL_FIELDS } from "./config_fields.ts";
import { commonFieldIssues } from "./config_checks.ts";

/** One model's member of the union: the common fields and its own (`MODEL_FIELDS`). */
function member<M extends LoadModel>(model: M) {
  return z.strictObject({ model: z.literal(model), ...commonFields, ...MODEL_FIELDS[model] });
}

export const attackConfigSchema = z.discriminatedUnion("model", [
  member("connections"),
  member("rate"),
  member("throughput"),
  member("count"),
  member("ramping-connections"),
]).superRefine((c, ctx) => {
  // The model's own checks across its fields (runner/load/models/), then what every model shares.
  const issues = [...modelDef(c.model).check(c), ...commonFieldIssues(c), ...stormRateIssues(c)];
  for (const issue of issues) ctx.addIssue({ code: "custom", ...issue });
});

/** A WebSocket storm's messages a second (arrivals times messages each) past one load's rate cap. */
function stormRateIssues(c: { model: LoadModel; ws?: { messagesPerConnection: number } }) {
  const perConnection = c.ws?.messagesPerConnection ?? 0;
  const arrivals = modelDef(c.model).targetArrivalsPerSec?.(c as never) ?? 0;
  if (perConnection === 0 || arrivals * perConnection <= MAX_RATE_PER_SEC) return [];
  return [{
    path: ["ws", "messagesPerConnection"],
    message:
      `${perConnection.toLocaleString("en-US")} messages on each of ${arrivals} connections a second ` +
      `ask ${(arrivals * perConnection).toLocaleString("en-US")} a second: at most ` +
      `${MAX_RATE_PER_SEC.toLocaleString("en-US")} (one load's cap); send fewer per connection or open fewer`,
  }];
}

/** What callers pass in; defaults are filled by `parseAttackConfig`. */
export type AttackConfigInput = z.input<typeof attackConfigSchema>;
export type AttackConfig = z.output<typeof attackConfigSchema>;
/** The model-specific part of an input: `model` and what its member adds to the common fields. */
export type ModelInput = AttackConfigInput extends infer T
  ? T extends unknown ? Omit<T, keyof typeof commonFields>
  : never
  : never;
/** An input without its URL (experiment plans: request paths relative to a target started later). */
export type RelativeAttackInput = AttackConfigInput extends infer T
  ? T extends unknown ? Omit<T, "url"> : never
  : never;

// A model added to LOAD_MODELS without a member here (or the reverse) fails type checking.
const coversEveryModel: [LoadModel] extends [AttackConfig["model"]]
  ? [AttackConfig["model"]] extends [LoadModel] ? true : false
  : false = true;
void coversEveryModel;

/** Validates and fills defaults; throws `ConfigError` listing every problem. */
export function parseAttackConfig(input: AttackConfigInput): AttackConfig {
  const parsed = validate(attackConfigSchema, input);
  if (parsed.ok) return parsed.data;
  throw new ConfigError(parsed.issues, { cause: parsed.error });
}
