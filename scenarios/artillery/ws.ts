/**
 * @module
 * Artillery's `engine: ws` scenario as a flow whose steps are connect, its sends, waits, thinks and loops as
 * any scenario's (flow.ts), then close.
 */
import { type Collector, join, problem, rejectUnknownKeys } from "./common.ts";
import { isRecord } from "../../validation/json_document.ts";
import { tagOrigin } from "./paths.ts";
import { convertCaptures, fill, type FlowContext } from "./request.ts";

type Step = Record<string, unknown>;
/** The two steps a ws scenario sends and waits with. */
type Action = "send" | "wait";

/** Whether the script's scenarios are all WebSocket ones. */
export function allWsScenarios(scenarios: unknown): boolean {
  return Array.isArray(scenarios) && scenarios.length > 0 &&
    scenarios.every((s) => isRecord(s) && s.engine === "ws");
}

/** A `send` or `wait` step (`key`) at `at` as a ws step of a flow, its text's templates filled as a url's. */
export function convertWsStep(step: Step, key: Action, at: string, ctx: FlowContext, out: Collector) {
  const read = readStep(step[key], key, join(at, key), out), ws = read.ws as { send?: string };
  if (typeof ws?.send === "string") ws.send = String(fill(ws.send, join(at, key), ctx, out));
  const keys = { ws: join(at, key), capture: join(join(at, key), "capture") };
  return tagOrigin(out.origins, read, { at, keys });
}

/** Whether a send's parameters are Artillery's object form (`payload` with capture or match). */
function readsAnswer(send: unknown): send is Record<string, unknown> {
  return isRecord(send) && ("capture" in send || "match" in send);
}

/** One `send` or `wait` as a ws step: its payload, its match, its captures. */
function readStep(params: unknown, key: Action, at: string, out: Collector): Step {
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
      const keys = { json: join(at, "json"), equals: join(at, "value") };
      return tagOrigin(out.origins, { json: match.json, equals: value }, { at, keys });
    }
  } else if (isRecord(match) && typeof match.regexp === "string") {
    rejectUnknownKeys(match, at, ["regexp", "strict"], out);
    return tagOrigin(out.origins, { regexp: match.regexp }, { at, keys: { regexp: join(at, "regexp") } });
  }
  return problem(out, at, "a match takes json with a text, number or true/false value, or regexp", {});
}
