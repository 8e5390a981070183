/**
 * @module
 * `loadlab steer URL ACTION [VALUE]`: changes a running load from another terminal, as `k6 scale` does.
 */
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";
import { HelpRequested, UsageError } from "./usage_error.ts";
import { TOKEN_HEADER } from "./dashboard/steer_control.ts";
import {
  describeChange,
  STEER_ACTIONS,
  type SteerChange,
  steerChangeSchema,
} from "../results/schema/steering.ts";
import type { SteerState } from "../runner/steering.ts";
import { terminalSafe } from "../validation/terminal_text.ts";
import { FlagValues } from "./flag_values.ts";
import { FetchProblem, readCapped } from "./baseline_flags.ts";

/** The control endpoint answers at once on a live run; a silent address must not keep steer waiting. */
const STEER_TIMEOUT_MS = 10_000;
/** A state with every change of a long steered run is a few KiB; more is not the endpoint's answer. */
const MAX_ANSWER_BYTES = 1 << 20;

const STEER_HELP = `loadlab steer: change the load of a running run, attack or demo

Usage: loadlab steer URL ACTION [VALUE]

  URL is the dashboard address the running command printed (with its ?token=...).
  ACTION:
    pause             send nothing from now until resume (the run's clock keeps going)
    resume            go on with the schedule as planned from now
    rate N            open models (rate, throughput): N requests/s to the end of the phase under way
    connections N     closed model: N connections from now (retired ones finish their request first)
    end-phase         end the phase under way now (the last one: the load ends)
    stop              end the load now (in-flight requests get the graceful stop)
    status            print the run under way and the changes so far

Every change is recorded in results.json (steering) with its instant, shown on the report's timelines,
and flags the run 'steered'; 'loadlab run --replay results.json' runs the same schedule again.
Exit codes: 0 applied, 2 refused (the reason is printed) or bad usage.`;

export function runSteerCommand(argv: string[]): Promise<number> {
  return runCommand("steer", async () => {
    if (argv.includes("-h") || argv.includes("--help")) throw new HelpRequested(STEER_HELP);
    const [address, action, value, ...extra] = argv;
    if (!address || !action || extra.length) {
      throw new UsageError(
        "give the dashboard URL the running command printed (it carries the run's token) and an action, " +
          "e.g. loadlab steer URL pause (see loadlab steer --help)",
      );
    }
    const { url, token } = controlUrlOf(address);
    const change = action === "status" ? null : changeOf(action, value);
    const { res, body } = await send(url, token, change);
    const answer = controlAnswer(res, body, change !== null);
    if (answer === null) {
      const type = terminalSafe(res.headers.get("content-type") ?? "no content-type");
      console.error(
        `loadlab steer: ${url.origin} answered ${res.status} (${type}), not loadlab's control endpoint: ` +
          "give the dashboard URL the running command printed",
      );
      return EXIT.badInput;
    }
    if ("error" in answer) {
      console.error(`loadlab steer: refused (${res.status}): ${terminalSafe(answer.error)}`);
      return EXIT.badInput;
    }
    if ("change" in answer) {
      console.log(`${describeChange(answer.change)} at ${answer.change.atSec.toFixed(2)}s`);
    } else console.log(statusText(answer));
    return EXIT.ok;
  });
}

/** The control endpoint and the token of a printed dashboard URL. */
function controlUrlOf(address: string): { url: URL; token: string } {
  const url = URL.parse(address);
  if (url === null) {
    throw new UsageError(`"${address}" is not a URL; give the dashboard URL the running command printed`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(
      "the URL must be http: or https:; give the dashboard URL the running command printed",
    );
  }
  const token = url.searchParams.get("token");
  if (!token) {
    throw new UsageError("the URL has no token: give the whole dashboard URL the running command printed");
  }
  return { url: new URL("/control", url), token };
}

/** The JSON change of an action and its value; a usage error names what is missing. */
function changeOf(action: string, value: string | undefined): Record<string, unknown> {
  if (!(STEER_ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(`unknown action "${action}": use ${STEER_ACTIONS.join(", ")} or status`);
  }
  const needsValue = action === "rate" || action === "connections";
  if (needsValue !== (value !== undefined)) {
    throw new UsageError(
      needsValue
        ? `${action} needs a number, e.g. loadlab steer URL ${action} 200`
        : `${action} takes no value`,
    );
  }
  if (value === undefined) return { action, by: "terminal" };
  // Read as the load flags read them (-R, -c), so "0x10" or "" is refused here, not sent as 16 or 0.
  const raw = { values: new Map([[action, [value]]]), spelled: new Map([[action, action]]), positionals: [] };
  const flags = new FlagValues(raw, [{ long: action, takesValue: true, example: "200" }]);
  if (action === "rate") return { action, ratePerSec: flags.rate(action), by: "terminal" };
  return { action, connections: flags.positiveInt(action), by: "terminal" };
}

/** Sends the change (or asks the state); the answer's JSON, or null past `MAX_ANSWER_BYTES` or not JSON. */
async function send(url: URL, token: string, change: Record<string, unknown> | null) {
  // identity: fetch would inflate a compressed answer ahead of the cap.
  const headers: Record<string, string> = { [TOKEN_HEADER]: token, "accept-encoding": "identity" };
  const signal = AbortSignal.timeout(STEER_TIMEOUT_MS);
  try {
    const res = change === null ? await fetch(url, { headers, signal }) : await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(change),
      signal,
    });
    return { res, body: await jsonCapped(res) };
  } catch (err) {
    const why = err instanceof DOMException && err.name === "TimeoutError"
      ? `no answer within ${STEER_TIMEOUT_MS / 1000} s`
      : (err as Error).message;
    throw new UsageError(`cannot reach ${url.origin}: ${why} (is the run still going?)`);
  }
}

async function jsonCapped(res: Response): Promise<unknown> {
  try {
    return JSON.parse(new TextDecoder().decode(await readCapped(res, MAX_ANSWER_BYTES)));
  } catch (err) {
    // The time limit running out mid-answer is the exchange's failure, said as such by `send`.
    if (err instanceof FetchProblem || err instanceof SyntaxError) return null;
    throw err;
  }
}

/** The control endpoint's answer, or null when another server answered. */
function controlAnswer(
  res: Response,
  body: unknown,
  posted: boolean,
): { error: string } | { change: SteerChange } | SteerState | null {
  if (typeof body !== "object" || body === null) return null;
  const fields = body as Record<string, unknown>;
  if (!res.ok) return typeof fields.error === "string" ? { error: fields.error } : null;
  if (posted) {
    const change = steerChangeSchema.safeParse(fields.change);
    return change.success ? { change: change.data } : null;
  }
  const state = typeof fields.running === "boolean" && Array.isArray(fields.changes);
  return state ? body as SteerState : null;
}

function statusText(state: SteerState): string {
  if (!state.running) return "no load is running now";
  const where = [`run ${state.run} (${state.model})`, state.paused ? "paused" : "running"];
  if (state.ratePerSec !== null) where.push(`rate ${state.ratePerSec}/s`);
  if (state.connections !== null) where.push(`connections ${state.connections}`);
  const changes = state.changes.map((c) => `  ${c.atSec.toFixed(2)}s ${describeChange(c)} (${c.by})`);
  return [where.join(", "), ...changes].join("\n");
}
