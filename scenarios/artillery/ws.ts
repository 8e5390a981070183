/**
 * @module
 * Artillery's `engine: ws` scenarios as a loadlab WebSocket storm.
 */
import { type Collector, isRecord, rejectUnknownKeys } from "./common.ts";
import { listOrigin, tagOrigin } from "./paths.ts";
import { unrollWs, wsFlowNeeded, wsFlowOf } from "./ws_flow.ts";
import { MAX_STORM_THINK_MS } from "../../runner/http/ws/config.ts";

/** Whether the script's scenarios are all WebSocket ones. */
export function allWsScenarios(scenarios: unknown): boolean {
  return Array.isArray(scenarios) && scenarios.length > 0 &&
    scenarios.every((s) => isRecord(s) && s.engine === "ws");
}

/**
 * The load's part for the script's ws scenario: a `ws` storm, or `flows` when it reads what the server sends.
 */
export function convertWsScenarios(
  scenarios: unknown[],
  target: URL,
  out: Collector,
): { ws: Record<string, unknown> } | { flows: Record<string, unknown>[] } {
  if (scenarios.length > 1) {
    out.issues.push({
      path: "scenarios",
      message: "one engine: ws scenario is converted; split the others into scripts",
    });
  }
  const scenario = scenarios[0] as Record<string, unknown>;
  rejectUnknownKeys(scenario, "scenarios[0]", ["engine", "flow", "name", "weight"], out);
  if (!Array.isArray(scenario.flow) || scenario.flow.length === 0) {
    out.issues.push({ path: "scenarios[0].flow", message: "missing: a list of steps such as - send: hello" });
    return { ws: {} };
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
      out.issues.push({
        path: at,
        message: "a think before the first send is not converted; move it after one",
      });
    } else {
      const k = messages.length - 1;
      if (thinkAt[k] === sendAt[k]) thinkAt[k] = `${at}.think`;
      if ((thinkAfterMs[k] += step.thinkMs ?? 0) > MAX_STORM_THINK_MS) overAt[k] ??= `${at}.think`;
    }
  }
  // Named at the script's think (the storm's own limit would name loadlab's key); one after the last send
  // is dropped below.
  overAt.slice(0, messages.length - 1).forEach((path, k) => {
    out.issues.push({
      path,
      message:
        `${thinkAfterMs[k] / 1000} seconds between two sends is over the ${MAX_STORM_THINK_MS / 60_000} ` +
        "minutes a WebSocket storm pauses; think at most 600 in a row",
    });
  });
  if (messages.length === 0) {
    out.issues.push({ path: "scenarios[0].flow", message: "a flow needs at least one send" });
  }
  while (thinkAfterMs.length > messages.length - 1 && thinkAfterMs.length > 0) {
    // A think after the last send only keeps the connection open; Artillery counts nothing for it.
    thinkAfterMs.pop();
  }
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
