/**
 * @module
 * Artillery `scenarios[]` -> loadlab `flows`.
 */
import {
  type Collector,
  HOOKS,
  join,
  nonNegative,
  problem,
  rejectUnknownKeys,
  secondsToDuration,
} from "./common.ts";
import { isRecord } from "../../validation/json_document.ts";
import { listOrigin, tagOrigin } from "./paths.ts";
import { convertRequest, fill, type FlowContext } from "./request.ts";
import { ifTrueHolds } from "./if_true.ts";
import { convertWsStep } from "./ws.ts";
import { GOT_MAX_REDIRECTS, METHODS } from "../../runner/script/artillery/runtime.ts";

/** Steps a `loop` may write out at most (count x steps), so a typo cannot build a giant flow. */
const MAX_UNROLLED_STEPS = 1000;

const WS_ACTIONS = ["send", "wait"];
const SCENARIO_KEYS = ["name", "weight", "flow"];

/** Every capture name (`as`) of the scenarios, of `strict: false` ones when not `strict`. */
export function captureNames(value: unknown, strict = true): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => captureNames(v, strict));
  const as = (c: unknown) =>
    isRecord(c) && typeof c.as === "string" && (c.strict !== false) === strict ? [c.as] : [];
  return Object.entries(isRecord(value) ? value : {}).flatMap(([k, v]) =>
    k === "capture" ? [v].flat().flatMap(as) : captureNames(v, strict)
  );
}

type Step = Record<string, unknown>;
/** Requests Artillery never sends (a false `ifTrue`, a loop of no round), kept as `ifTrue: "0"`. */
const never = (step: Step): Step => ({ ...step, ifTrue: "0" });
const isNever = (s?: Step) => s?.ifTrue === "0";

/** One step as loadlab steps: one, or a `loop`'s steps `count` times over. */
function convertStep(step: unknown, path: string, ctx: FlowContext, out: Collector): Array<Step | undefined> {
  if (!isRecord(step) || Object.keys(step).length === 0) {
    return problem(out, path, `expected a step such as {get: {url: /home}} or {think: 1}`, [undefined]);
  }
  if (step.loop !== undefined && ctx.processor !== undefined && step.whileTrue !== undefined) {
    // With whileTrue, Artillery reads no count: the function alone ends the loop.
    rejectUnknownKeys(step, path, ["loop", "whileTrue", "loopValue", "count"], out);
    if (!inProcessor(step.whileTrue, ctx)) {
      const why = "names no function of config.processor: Artillery's loop would then never end";
      return problem(out, join(path, "whileTrue"), why, [undefined]);
    }
    const index = String(step.loopValue ?? "$loopCount");
    const own = { ...ctx, runtimeNames: new Set([...ctx.runtimeNames, index]) };
    return [{ loop: loopBody(step, path, own, out), whileTrue: String(step.whileTrue), loopValue: index }];
  }
  if (step.loop !== undefined) return convertLoop(step, path, ctx, out);
  if (Array.isArray(step.parallel)) {
    out.warnings.push(`${path}.parallel: its requests are sent one after another here`);
    return step.parallel.flatMap((s, j) => convertStep(s, join(join(path, "parallel"), j), ctx, out));
  }
  const action = Object.keys(step).find((k) =>
    k === "think" || k === "log" || (ctx.ws ? WS_ACTIONS : METHODS).includes(k) ||
    k === "function" && ctx.processor !== undefined
  );
  rejectUnknownKeys(step, path, action ? [action] : [], out);
  if (action === "send" || action === "wait") return [convertWsStep(step, action, path, ctx, out)];
  if (action === "function") return [{ function: String(step.function) }];
  if (action === "log") {
    out.warnings.push(`${path}.log: Artillery prints it for each virtual user; not printed here`);
    return [];
  }
  if (action === "think") {
    const thinkPath = join(path, "think");
    const seconds = typeof step.think === "string" ? fill(step.think, thinkPath, ctx, out) : step.think;
    noteFractionalThink(seconds, thinkPath, out);
    const think = { think: secondsToDuration(seconds, thinkPath, out) };
    return [tagOrigin(out.origins, think, { at: path, keys: { think: thinkPath } })];
  }
  if (!action) return [undefined];
  const ifTrue = isRecord(step[action]) ? step[action].ifTrue : undefined;
  // Artillery calls a processor function of that name with the virtual user's vars.
  const holds = ifTrue === undefined ||
    (inProcessor(ifTrue, ctx) ? ifTrue : ifTrueHolds(ifTrue, join(join(path, action), "ifTrue"), ctx, out));
  if (holds === undefined) return [undefined];
  // A request never sent is kept (its flow keeps it only when it has no other request), its problems unsaid.
  const into = holds ? out : { ...out, issues: [], warnings: [] };
  const converted = convertRequest(step[action], join(path, action), ctx, into);
  if (!holds) return converted ? [never({ [action]: converted.request })] : [];
  if (converted === undefined) return [undefined];
  const { request, capture, expect, maxRedirects } = converted;
  const extras = {
    ...maxRedirects === 0 ? { maxRedirects } : {},
    ...capture?.length ? { capture } : {},
    ...expect?.length ? { expect } : {},
    ...typeof holds === "string" ? { ifTrue: holds } : {},
    ...ctx.processor !== undefined ? hookLists(step[action] as Step, HOOKS.slice(0, 2)) : {},
    ...ctx.processor !== undefined && (step[action] as Step).headers ? { ownHeaders: true } : {},
  };
  // A step's `capture` and `expect` are the request's in the script (`get.capture`), beside it here.
  const keys = { capture: join(join(path, action), "capture"), expect: join(join(path, action), "expect") };
  return [tagOrigin(out.origins, { [action]: request, ...extras }, { at: path, keys })];
}

/** Whether `name` is a function of the processor (a name its text holds): Artillery calls it then. */
const inProcessor = (name: unknown, ctx: FlowContext) =>
  typeof name === "string" && /^\w+$/.test(name) && new RegExp(`\\b${name}\\b`).test(ctx.processor ?? "");

/** The hooks of `keys` a request or scenario names (each a name or a list) as lists. */
function hookLists(spec: Step, keys: string[]) {
  const lists: Record<string, string[]> = {};
  for (const k of keys) if (spec[k] !== undefined) lists[k] = [spec[k]].flat().map(String);
  return lists;
}

/** The start of the one warning about fractional think times (it is given once per script). */
export const FRACTIONAL_THINK = "think is read as seconds";

/** `think` in seconds as Artillery's docs say (0.5 waits 500 ms); Artillery 2 reads a fraction as ms. */
function noteFractionalThink(value: unknown, path: string, out: Collector): void {
  const seconds = typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof seconds !== "number" || Number.isInteger(seconds) || !Number.isFinite(seconds)) return;
  if (out.warnings.some((w) => w.includes(FRACTIONAL_THINK))) return;
  out.warnings.push(
    `${path}: ${FRACTIONAL_THINK} (${JSON.stringify(value)} waits ${Math.round(seconds * 1000)} ` +
      "ms, as Artillery's documentation says); Artillery 2.0.21 waits about 1 ms on a fraction, pausing less",
  );
}

/** A loop's steps converted against `ctx`, each named at its place in the loop. */
const loopBody = (step: Step, path: string, ctx: FlowContext, out: Collector) =>
  [step.loop].flat().flatMap((s, j) => convertStep(s, join(join(path, "loop"), j), ctx, out));

/** `{loop: [steps], count: N}` written out N times, or once per value `over` lists (a list or its name). */
function convertLoop(step: Record<string, unknown>, path: string, ctx: FlowContext, out: Collector) {
  rejectUnknownKeys(step, path, ["loop", "count", "over", "loopValue", "loopElement"], out);
  const { count, over } = step;
  const [index, element] = [step.loopValue ?? "$loopCount", step.loopElement ?? "$loopElement"].map(String);
  const named = typeof over === "string" ? ctx.variables.get(over) : undefined;
  if (named && "list" in named && !named.rows) {
    out.warnings.push(
      `${path}.over: ${over} holds one value drawn per user, no list: no round runs, as there`,
    );
    const body = loopBody(step, path, ctx, { ...out, issues: [], warnings: [] });
    return body.filter((s) => s !== undefined && !("think" in s)).map((s) => never(s!));
  }
  const list = Array.isArray(over) ? over : named && "list" in named ? named.list : undefined;
  const values = list?.every((v) => v !== null) ? list : undefined;
  const rounds = values?.length ?? (Number.isInteger(count) && over === undefined ? count as number : 0);
  if (!Array.isArray(step.loop) || rounds < 1) {
    const what =
      "a whole count >= 1 or values to go over (a list, a variable's list or a loadAll payload's name)";
    return problem(out, join(path, "loop"), `a loop needs a list of steps and ${what}`, [undefined]);
  }
  // Each round is converted with its number (from 0) and value filled in (a row's fields as
  // `$loopElement.field`); the first round alone reports problems.
  const round = (k: number) => {
    const variables = new Map(ctx.variables), value = values?.[k];
    const fields = value instanceof Object ? Object.entries(value) : [["", value] as const];
    for (const [f, v] of values ? fields : []) {
      variables.set(`${element}${f && "."}${f}`, { value: v as string });
      // A list's items by index too (`$loopElement[0]`).
      if (Array.isArray(value)) variables.set(`${element}[${f}]`, { value: v as string });
    }
    variables.set(index, { value: k });
    const into = k === 0 ? out : { ...out, issues: [], warnings: [] }, own = { ...ctx, variables };
    const steps = loopBody(step, path, own, into);
    // A processor's functions read the round's number and value in context.vars, as Artillery sets them.
    const vars = { [index]: k, [element]: values ? values[k] : k };
    return ctx.processor === undefined || steps.length === 0 ? steps : [{ vars }, ...steps];
  };
  const once = round(0);
  // A loop of no steps runs nothing however often: its count is never written out.
  if (once.length === 0) return [];
  // A body that did not convert is named once, not again as too many steps.
  if (once.includes(undefined)) return [undefined];
  if (once.length * rounds > MAX_UNROLLED_STEPS) {
    const steps = `loop writes out ${once.length * rounds} steps; at most ${MAX_UNROLLED_STEPS}`;
    return problem(out, path, steps, [undefined]);
  }
  return Array.from({ length: rounds }, (_, k) => k === 0 ? once : round(k)).flat();
}

/** Converts `scenarios[]` to loadlab flows; problems go to `out` with their paths. */
export function convertScenarios(scenarios: unknown, ctx: FlowContext, out: Collector) {
  if (!Array.isArray(scenarios) || scenarios.length === 0) {
    return problem(out, "scenarios", "missing: at least one scenario with a flow", []);
  }
  const used = new Set<string>();
  const flows = scenarios.map((scenario, i) => convertScenario(scenario, i, used, ctx, out));
  if (flows.every((f) => f === undefined) && out.issues.length === 0) {
    problem(out, "scenarios", "no scenario with a weight > 0");
  }
  return flows.filter((f) => f !== undefined);
}

/** Scenario `i` as a loadlab flow named apart from those in `used`; undefined if malformed or of weight 0. */
export function convertScenario(
  scenario: unknown,
  i: number,
  used: Set<string>,
  ctx: FlowContext,
  out: Collector,
  path = join("scenarios", i),
) {
  if (!isRecord(scenario)) {
    return problem(out, path, `expected a scenario with a flow, found ${JSON.stringify(scenario)}`);
  }
  const engine = scenario.engine;
  const known = ctx.processor !== undefined ? [...SCENARIO_KEYS, ...HOOKS] : SCENARIO_KEYS;
  const allowed = engine === undefined || engine === "http" || ctx.ws ? [...known, "engine"] : known;
  // Artillery's expect plugin reads `expect` on a request; on a scenario nothing reads it.
  if (scenario.expect !== undefined) {
    out.warnings.push(`${join(path, "expect")}: on a scenario: Artillery checks nothing in it`);
  }
  rejectUnknownKeys(scenario, path, [...allowed, "expect"], out);
  const weight = scenario.weight === undefined ? 1 : nonNegative(scenario.weight, join(path, "weight"), out);
  if (!Array.isArray(scenario.flow) || scenario.flow.length === 0) {
    return problem(out, join(path, "flow"), "missing: a list of steps such as - get: {url: /}");
  }
  if (weight === 0) {
    // Artillery never picks a scenario of weight 0; loadlab's flows need a weight > 0.
    out.warnings.push(`${path}: weight 0, never run by Artillery; left out`);
    return undefined;
  }
  // The script's step of each converted one: a loop's copies are named at the loop.
  const stepPaths: string[] = [];
  const fields = ctx.fields = new Map();
  const all = scenario.flow.flatMap((step, j) => {
    const converted = convertStep(step, join(join(path, "flow"), j), ctx, out);
    stepPaths.push(...converted.map(() => join(join(path, "flow"), j)));
    return converted;
  });
  // A flow whose every request a false ifTrue leaves out keeps one, never sent, as Artillery sends none.
  const isRequest = (s?: Step) => s !== undefined && !("think" in s) && !isNever(s);
  const keep = all.map((s) => !isNever(s));
  if (!all.some(isRequest)) keep[all.findIndex(isNever)] = true;
  const steps = all.filter((_, k) => keep[k]);
  // Each json capture a field is read of captures that field too.
  for (const captures of steps.map((s) => (s?.capture ?? []) as Step[])) {
    for (const c of [...captures]) {
      for (const [as, [of, rest]] of fields) {
        if (c.as === of && c.json) captures.push({ json: c.json + rest, as });
      }
    }
  }
  const at = stepPaths.filter((_, k) => keep[k]);
  if (ctx.ws !== undefined) {
    // A ws user connects to the target's path first and closes after its last step.
    steps.unshift({ ws: { connect: ctx.ws } });
    steps.push({ ws: { close: true } });
    at.unshift("config.target");
    at.push(join(path, "flow"));
  }
  tagOrigin(out.origins, steps, listOrigin(join(path, "flow"), at));
  if (!steps.some((s) => s !== undefined && !("think" in s))) {
    problem(out, join(path, "flow"), "a flow needs at least one request");
  }
  const name = uniqueName(String(scenario.name ?? `scenario ${i}`), used);
  const flow = { name, weight, ...ctx.ws === undefined ? { maxRedirects: GOT_MAX_REDIRECTS } : {}, steps };
  // The scenario's hooks, read by the session script a processor runs in (processor.ts).
  Object.defineProperty(flow, "hooks", { value: hookLists(scenario, HOOKS) });
  const keys: Record<string, string> = { steps: join(path, "flow"), data: "config.payload" };
  for (const key of ["name", "weight"]) if (scenario[key] !== undefined) keys[key] = join(path, key);
  return tagOrigin(out.origins, flow, { at: path, keys });
}

/** Artillery does not require unique names; loadlab reports per flow and phase, so repeats get a suffix. */
export function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = `${name} (${n})`;
  used.add(candidate);
  return candidate;
}
