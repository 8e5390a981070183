/**
 * @module
 * Artillery's `engine: ws` scenarios as a loadlab WebSocket storm: each virtual user opens a
 * connection, sends its flow's messages in order (each waits for its answer, as the engine's echo
 * rule has it), pauses where the flow thinks, and closes. `send` (text, or an object sent as JSON),
 * `think` (seconds) and `loop` (with `count`, nested) are converted, loops unrolled; anything else is
 * named with its path. One scenario only (a storm sends one sequence of messages), and not mixed with
 * HTTP scenarios.
 */
import { type Collector, isRecord, join, nonNegative, rejectUnknownKeys } from "./artillery_common.ts";

/** Most messages one virtual user may send once loops are unrolled. */
const MAX_MESSAGES = 10_000;

/** Whether the script's scenarios are all WebSocket ones. */
export function allWsScenarios(scenarios: unknown): boolean {
  return Array.isArray(scenarios) && scenarios.length > 0 &&
    scenarios.every((s) => isRecord(s) && s.engine === "ws");
}

/** The load's `ws` block for the script's one ws scenario at `target` (its path kept). */
export function convertWsScenarios(
  scenarios: unknown[],
  target: URL,
  out: Collector,
): Record<string, unknown> {
  if (scenarios.length > 1) {
    out.issues.push({
      path: "scenarios",
      message: "one engine: ws scenario is converted; split the others into scripts",
    });
  }
  const scenario = scenarios[0] as Record<string, unknown>;
  rejectUnknownKeys(scenario, "scenarios[0]", ["engine", "flow", "name", "weight"], out);
  const messages: string[] = [];
  const thinkAfterMs: number[] = [];
  if (!Array.isArray(scenario.flow) || scenario.flow.length === 0) {
    out.issues.push({ path: "scenarios[0].flow", message: "missing: a list of steps such as - send: hello" });
  } else walk(scenario.flow, "scenarios[0].flow", { messages, thinkAfterMs }, out);
  if (messages.length === 0) {
    out.issues.push({ path: "scenarios[0].flow", message: "a flow needs at least one send" });
  }
  while (thinkAfterMs.length > messages.length - 1 && thinkAfterMs.length > 0) {
    // A think after the last send only keeps the connection open; Artillery counts nothing for it.
    thinkAfterMs.pop();
  }
  return {
    path: `${target.pathname}${target.search}`,
    messages,
    messagesPerConnection: messages.length,
    ...(thinkAfterMs.some((ms) => ms > 0) ? { thinkAfterMs } : {}),
  };
}

interface Unrolled {
  messages: string[];
  thinkAfterMs: number[];
}

function walk(steps: unknown[], path: string, into: Unrolled, out: Collector): void {
  steps.forEach((step, j) => {
    const at = join(path, j);
    if (into.messages.length > MAX_MESSAGES) return;
    if (!isRecord(step)) {
      out.issues.push({
        path: at,
        message: `expected a step such as - send: hello, found ${JSON.stringify(step)}`,
      });
    } else if ("send" in step) {
      rejectUnknownKeys(step, at, ["send"], out);
      const send = step.send;
      into.messages.push(typeof send === "string" ? send : JSON.stringify(send));
      into.thinkAfterMs.push(0);
    } else if ("think" in step) {
      rejectUnknownKeys(step, at, ["think"], out);
      const seconds = nonNegative(step.think, join(at, "think"), out) ?? 0;
      if (into.messages.length === 0) {
        out.issues.push({
          path: at,
          message: "a think before the first send is not converted; move it after one",
        });
      } else into.thinkAfterMs[into.messages.length - 1] += Math.round(seconds * 1000);
    } else if ("loop" in step) {
      rejectUnknownKeys(step, at, ["loop", "count"], out);
      const count = step.count === undefined ? undefined : nonNegative(step.count, join(at, "count"), out);
      if (count === undefined || !Number.isInteger(count) || !Array.isArray(step.loop)) {
        out.issues.push({
          path: at,
          message: "a loop needs a list of steps and a whole count (an endless loop never ends a user)",
        });
        return;
      }
      for (let k = 0; k < count && into.messages.length <= MAX_MESSAGES; k++) {
        walk(step.loop, join(at, "loop"), into, out);
      }
    } else {
      out.issues.push({ path: at, message: `only send, think and loop steps are converted for engine: ws` });
    }
  });
  if (into.messages.length > MAX_MESSAGES) {
    out.issues.push({ path, message: `over ${MAX_MESSAGES} messages per user once loops are unrolled` });
    into.messages.length = 0;
  }
}
