/**
 * Artillery `engine: ws` scenarios that capture or match what the server sends become a flow of ws steps
 * (a connect to the target's path, the sends with their match and captures, waits, thinks, loops unrolled,
 * a close) that the experiment schema accepts; what cannot be converted is named with its path.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { artilleryToExperiment } from "./artillery.ts";
import { ArtilleryError } from "./artillery_common.ts";
import { experimentSchema } from "./schema.ts";

const SCRIPT = `
config:
  target: ws://127.0.0.1:8080/ws/room?room=a
  phases: [{ duration: 2, arrivalRate: 2 }]
scenarios:
  - engine: ws
    flow:
      - send:
          payload: { op: join }
          capture: { json: $.from, as: me }
          match: { json: $.self, value: true }
      - think: 0.1
      - loop:
          - send: "ping {{ me }}"
        count: 2
      - wait:
          match: { regexp: "ping" }
`;

Deno.test("an engine: ws scenario with capture, match and wait becomes a flow of ws steps", () => {
  const exp = artilleryToExperiment(parseYaml(SCRIPT)).experiment;
  assertEquals(exp.targets, { target: { url: "http://127.0.0.1:8080" } });
  const load = (exp.loads as Record<string, Record<string, unknown>>).artillery;
  assertEquals(load.ws, undefined);
  assertEquals(load.flows, [{
    name: "artillery",
    steps: [
      { ws: { connect: "/ws/room?room=a" } },
      {
        ws: { send: '{"op":"join"}', match: { json: "$.self", equals: true } },
        capture: [{ json: "$.from", as: "me" }],
      },
      { think: "100ms" },
      { ws: { send: "ping {{ me }}" } },
      { ws: { send: "ping {{ me }}" } },
      { ws: { wait: { regexp: "ping" } } },
      { ws: { close: true } },
    ],
  }]);
  const parsed = experimentSchema.safeParse(exp);
  ok(parsed.success, JSON.stringify(parsed.error?.issues));
});

Deno.test("what an engine: ws flow cannot convert is named with its path", () => {
  const script = `
config: { target: "ws://127.0.0.1:1/", phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios:
  - engine: ws
    flow:
      - send: { payload: a, capture: { header: x, as: y } }
      - send: { payload: b, match: { json: $.a, value: { deep: 1 } } }
      - wait: { capture: { json: $.a, as: a }, timeout: 3 }
`;
  let issues: string[] = [];
  try {
    artilleryToExperiment(parseYaml(script));
  } catch (err) {
    if (!(err instanceof ArtilleryError)) throw err;
    issues = err.issues.map((i) => i.path).sort();
  }
  assertEquals(issues, [
    "scenarios[0].flow[0].send.capture",
    "scenarios[0].flow[1].send.match",
    "scenarios[0].flow[2].wait.timeout",
  ]);
});
