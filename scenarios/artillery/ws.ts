/**
 * @module
 * Artillery's `engine: ws` scenarios as a loadlab WebSocket storm.
 */
import {
  type Collector,
  join,
  nonNegative,
  problem,
  rejectUnknownKeys,
  secondsToDuration,
} from "./common.ts";
import { isRecord } from "../../validation/json_document.ts";
import { listOrigin, tagOrigin } from "./paths.ts";
import { MAX_STORM_THINK_MS } from "../../runner/http/ws/config.ts";
import { durationMsOf } from "../../validation/duration.ts";
import { convertCaptures } from "./request.ts";

/** Whether the script's scenarios are all WebSocket ones. */
export function allWsScenarios(scenarios: unknown): boolean {
  return Array.isArray(scenarios) && scenarios.length > 0 &&
    scenarios.every((s) => isRecord(s) && s.engine === "ws");
}

type WsPart = { ws: Record<string, unknown> } | { flows: Record<string, unknown>[] };

/** The ws scenario's load part: a `ws` storm, or `flows` when it reads what the server sends. */
export function convertWsScenarios(scenarios: unknown[], target: URL, out: Collector): WsPart {
  if (scenarios.length > 1) {
    problem(out, "scenarios", "one engine: ws scenario is converted; split the others");
  }
  const scenario = scenarios[0] as Record<string, unknown>;
  rejectUnknownKeys(scenario, "scenarios[0]", ["engine", "flow", "name", "weight"], out);
  if (!Array.isArray(scenario.flow) || scenario.flow.length === 0) {
    return problem(out, "scenarios[0].flow", "missing: a list of steps such as - send: hello", { ws: {} });
  }
  const steps = unrollWs(scenario.flow, out);
  if (wsFlowNeeded(scenario.flow)) return { flows: [wsFlowOf(steps, target, out)] };
  const messages: string[] = [];
  const thinkAfterMs: number[] = [];
  // The think step at which each message's pause went past a storm's longest, if one did.
  const overAt: string[] = [];
  // The script's send of each message, and the first think of the pause after it (else the send).
  const sendAt: string[] = [];
  const thinkAt: string[] = [];
  for (const { at, step } of steps) {
    if (step.ws?.send !== undefined) {
      messages.push(step.ws.send);
      thinkAfterMs.push(0);
      sendAt.push(`${at}.send`);
      thinkAt.push(`${at}.send`);
    } else if (messages.length === 0) {
      problem(out, at, "a think before the first send is not converted; move it after one");
    } else {
      const k = messages.length - 1;
      if (thinkAt[k] === sendAt[k]) thinkAt[k] = `${at}.think`;
      if ((thinkAfterMs[k] += step.thinkMs ?? 0) > MAX_STORM_THINK_MS) overAt[k] ??= `${at}.think`;
    }
  }
  // Named at the script's think, not loadlab's key; one after the last send is dropped below.
  overAt.slice(0, messages.length - 1).forEach((path, k) => {
    const most = `${MAX_STORM_THINK_MS / 60_000} minutes a storm pauses; think at most 600 in a row`;
    problem(out, path, `${thinkAfterMs[k] / 1000} seconds between two sends is over the ${most}`);
  });
  if (messages.length === 0) problem(out, "scenarios[0].flow", "a flow needs at least one send");
  // A think after the last send only keeps the connection open; Artillery counts nothing for it.
  thinkAfterMs.length = Math.max(0, messages.length - 1);
  const ws = {
    path: `${target.pathname}${target.search}`,
    messages: tagOrigin(out.origins, messages, listOrigin("scenarios[0].flow", sendAt)),
    messagesPerConnection: messages.length,
    ...(thinkAfterMs.some((ms) => ms > 0)
      ? { thinkAfterMs: tagOrigin(out.origins, thinkAfterMs, listOrigin("scenarios[0].flow", thinkAt)) }
      : {}),
  };
  return { ws: tagOrigin(out.origins, ws, { at: "scenarios[0].flow", keys: { path: "config.target" } }) };
}

/** Most steps one virtual user's flow may have once loops are unrolled. */
const MAX_STEPS = 10_000;

/** Whether a send's parameters are Artillery's object form (`payload` with capture or match). */
function readsAnswer(send: unknown): send is Record<string, unknown> {
  return isRecord(send) && ("capture" in send || "match" in send);
}

/** Whether `flow` (loops included) reads what the server sends: then it converts to a flow, not a storm. */
function wsFlowNeeded(flow: unknown): boolean {
  if (!Array.isArray(flow)) return false;
  return flow.some((step) =>
    isRecord(step) && ("wait" in step || readsAnswer(step.send) || wsFlowNeeded(step.loop))
  );
}

/** One step of a virtual user's flow once loops are unrolled (experiment-file form), with its path. */
interface UnrolledStep {
  at: string;
  step: { ws?: { send?: string }; think?: string; thinkMs?: number; capture?: unknown[] };
}

/** The scenario's `flow` as steps, loops unrolled (at most `MAX_STEPS`); problems named in `out`. */
function unrollWs(flow: unknown[], out: Collector): UnrolledStep[] {
  const steps: UnrolledStep[] = [];
  walk(flow, "scenarios[0].flow", steps, out);
  if (steps.length > MAX_STEPS) {
    problem(out, "scenarios[0].flow", `over ${MAX_STEPS} steps per user once loops are unrolled`);
    steps.length = 0;
  }
  return steps;
}

/** A virtual user's flow: connect to `target`'s path, its steps, close, tagged with the script's paths. */
function wsFlowOf(steps: readonly UnrolledStep[], target: URL, out: Collector): Record<string, unknown> {
  const connect = { ws: { connect: `${target.pathname}${target.search}` } };
  const file = steps.map(({ step }) => step.thinkMs === undefined ? step : { think: `${step.thinkMs}ms` });
  const paths = ["config.target", ...steps.map(({ at }) => at), "scenarios[0].flow"];
  const all = [connect, ...file, { ws: { close: true } }];
  tagOrigin(out.origins, all, listOrigin("scenarios[0].flow", paths));
  const origin = { at: "scenarios[0]", keys: { steps: "scenarios[0].flow" } };
  return tagOrigin(out.origins, { name: "artillery", steps: all }, origin);
}

function walk(flow: unknown[], path: string, steps: UnrolledStep[], out: Collector): void {
  flow.forEach((step, j) => {
    const at = join(path, j);
    if (steps.length > MAX_STEPS) return;
    if (!isRecord(step)) {
      problem(out, at, `expected a step such as - send: hello, found ${JSON.stringify(step)}`);
    } else if ("send" in step || "wait" in step) {
      const key = "send" in step ? "send" : "wait";
      rejectUnknownKeys(step, at, [key], out);
      const keys = { ws: join(at, key), capture: join(join(at, key), "capture") };
      steps.push({
        at,
        step: tagOrigin(out.origins, readStep(step[key], key, join(at, key), out), { at, keys }),
      });
    } else if ("think" in step) {
      rejectUnknownKeys(step, at, ["think"], out);
      const think = secondsToDuration(step.think, join(at, "think"), out);
      if (think !== undefined) steps.push({ at, step: { thinkMs: durationMsOf(think) ?? 0 } });
    } else if ("loop" in step) {
      rejectUnknownKeys(step, at, ["loop", "count"], out);
      const count = step.count === undefined ? undefined : nonNegative(step.count, join(at, "count"), out);
      if (count === undefined || !Number.isInteger(count) || !Array.isArray(step.loop)) {
        const why = "a loop needs a list of steps and a whole count (an endless loop never ends a user)";
        return problem(out, at, why);
      }
      // The body is read once (its problems named once) and its steps copied `count` times.
      const body: UnrolledStep[] = [];
      walk(step.loop, join(at, "loop"), body, out);
      for (let k = 0; k < count && body.length > 0 && steps.length <= MAX_STEPS; k++) {
        steps.push(...(k === 0 ? body : structuredClone(body)));
      }
    } else {
      problem(out, at, "only send, wait, think and loop steps are converted for engine: ws");
    }
  });
}

/** One `send` or `wait` as a ws step: its payload, its match, its captures. */
function readStep(params: unknown, key: "send" | "wait", at: string, out: Collector): UnrolledStep["step"] {
  const text = (v: unknown) => typeof v === "string" ? v : JSON.stringify(v);
  if (key === "send" && !readsAnswer(params)) {
    return { ws: tagOrigin(out.origins, { send: text(params) }, { at }) };
  }
  if (!isRecord(params)) return problem(out, at, "expected capture and/or match to wait for a message", {});
  rejectUnknownKeys(params, at, key === "send" ? ["payload", "capture", "match"] : ["capture", "match"], out);
  if (key === "send" && params.payload === undefined) {
    problem(out, join(at, "payload"), "missing: the message to send");
  }
  const match = params.match === undefined ? {} : readMatch(params.match, join(at, "match"), out);
  const capture = convertCaptures(params.capture, join(at, "capture"), out, ["json", "regexp"]) ?? [];
  const ws = key === "send" ? { send: text(params.payload), match } : { wait: match };
  // The script's `payload` is the step's `send`; its `match` is a wait step's `wait`.
  tagOrigin(out.origins, ws, { at, keys: { send: join(at, "payload"), wait: join(at, "match") } });
  return { ws, ...(capture.length > 0 ? { capture } : {}) };
}

/** Artillery's `match: {json, value}` or `{regexp}` (one of them) as a ws step's match. */
function readMatch(match: unknown, at: string, out: Collector): Record<string, unknown> {
  if (Array.isArray(match)) {
    if (match.length !== 1) problem(out, at, "one match per step is converted");
    return readMatch(match[0], join(at, 0), out);
  }
  if (isRecord(match) && typeof match.json === "string" && "value" in match) {
    rejectUnknownKeys(match, at, ["json", "value", "strict"], out);
    const value = match.value;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      return tagOrigin(out.origins, { json: match.json, equals: value }, {
        at,
        keys: { json: join(at, "json"), equals: join(at, "value") },
      });
    }
  } else if (isRecord(match) && typeof match.regexp === "string") {
    rejectUnknownKeys(match, at, ["regexp", "strict"], out);
    return tagOrigin(out.origins, { regexp: match.regexp }, { at, keys: { regexp: join(at, "regexp") } });
  }
  return problem(out, at, "a match takes json with a text, number or true/false value, or regexp", {});
}
