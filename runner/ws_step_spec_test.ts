/**
 * A flow's ws steps in the attack config: one action a step, each field with its action, the order a
 * session's WebSocket allows, what a message has not (status, headers), and how results name each step.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { attackConfigSchema } from "./config.ts";
import { wsStepIssues } from "./ws_step_spec.ts";
import { wsEndpointName, wsStepLabel } from "./endpoint_table.ts";

function issuesOf(steps: unknown[]): string[] {
  const r = attackConfigSchema.safeParse({
    url: "http://127.0.0.1:1/",
    model: "count",
    requests: 1,
    flows: [{ name: "f", steps }],
  });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

Deno.test("a ws step does one thing, with its own fields; a flow's steps keep the WebSocket's order", () => {
  assertEquals(
    issuesOf([{ ws: { connect: "/ws" } }, { ws: { send: "a", match: {} } }, { ws: { close: 1000 } }]),
    [],
  );
  assertEquals(issuesOf([{ ws: { connect: "/ws", send: "a" } }]), [
    "flows.0.steps.0.ws: a ws step does one thing; found connect and send (use one step each)",
  ]);
  assertEquals(issuesOf([{ ws: { connect: "/ws", match: {} } }]), [
    "flows.0.steps.0.ws.match: match goes with send, not connect",
  ]);
  assertEquals(issuesOf([{ ws: { connect: "/ws", headers: { "a b": "x" } } }]).length, 1);
  assertEquals(issuesOf([{ ws: { connect: "/ws" } }, { ws: { wait: { json: "$.a" } } }]), [
    "flows.0.steps.1.ws.wait.json: a json check takes equals or exists (one of them)",
  ]);
  assertEquals(
    wsStepIssues([
      { ws: { send: "a" } },
      { ws: { connect: "/a" } },
      { ws: { connect: "/b" }, capture: [{ header: "x" }] },
      { ws: { close: 1000 } },
      { ws: { wait: {} }, expect: [{ status: 200 }], maxKeptBytes: 4096 },
    ]).map((i) => `${i.path.join(".")}: ${i.message}`),
    [
      "0.ws.send: send needs an open WebSocket: add a step - ws: { connect: /path } before it",
      "2.ws.connect: a WebSocket is open already: close it first",
      "2.capture: a connect step receives no message: capture and expect go with send or wait",
      "2.capture.0.header: a message has no headers: capture json or regexp",
      "4.ws.wait: wait needs an open WebSocket: add a step - ws: { connect: /path } before it",
      "4.expect.0.status: a message has no status: check json or contains",
      "4.maxKeptBytes: a ws step keeps its message whole up to the message cap: drop maxKeptBytes",
    ],
  );
});

Deno.test("results name a ws step by its label, its name, else its action and the WebSocket's path", () => {
  assertEquals(wsStepLabel({ ws: { connect: "/ws?t={{ t }}" } }, ""), "WS CONNECT /ws?t={{ t }}");
  assertEquals(wsStepLabel({ ws: { send: "a" } }, "/ws"), null);
  assertEquals(wsStepLabel({ ws: { send: "a" }, capture: [{}] }, "/ws"), "WS SEND /ws");
  assertEquals(wsStepLabel({ ws: { wait: {} } }, "/ws"), "WS WAIT /ws");
  assertEquals(wsStepLabel({ ws: { close: 1000 } }, "/ws"), null);
  const named = { ws: { send: "a", match: {}, name: "hello" }, label: "greet" };
  assertEquals([wsStepLabel(named, "/ws"), wsEndpointName(named, "greet")], ["greet", "hello"]);
});

Deno.test("a close code is one an endpoint may send: reserved ones (1004-1006, 1015-2999) are refused", () => {
  const close = (code: number) =>
    issuesOf([{ ws: { connect: "/ws" } }, { ws: { close: code } }]).map((i) => i.replace(/:.*/, ""));
  for (const code of [1000, 1001, 1003, 1007, 1011, 1014, 3000, 4999]) {
    assertEquals(close(code), [], `${code}`);
  }
  // A peer answers these with a protocol error (1002), which read as the target's failure.
  for (const code of [999, 1004, 1005, 1006, 1015, 1016, 2999, 5000]) {
    assertEquals(close(code), ["flows.0.steps.1.ws.close"], `${code}`);
  }
  const [message] = issuesOf([{ ws: { connect: "/ws" } }, { ws: { close: 1005 } }]);
  assertEquals(
    message,
    "flows.0.steps.1.ws.close: 1005 is not a code an endpoint may send: use 1000 (normal), 1001-1003, 1007-1014 or 3000-4999",
  );
});

Deno.test("a ws step may not share its name with an HTTP request: a message's round trip would pool with it", () => {
  const get = (name: string) => ({ request: { method: "GET", path: "/json", name } });
  const hello = { ws: { send: "hi", match: {}, name: "hello" } };
  assertEquals(issuesOf([get("hello"), { ws: { connect: "/ws" } }, hello]), [
    "flows.0.steps.2: the name \"hello\" is both an HTTP request's and a ws step's: their numbers would pool " +
    "(a message's round trip with a request's latency); give one of them a name of its own",
  ]);
  // The request second, or named by the ws step's label: the same.
  assertEquals(issuesOf([{ ws: { connect: "/ws" } }, hello, get("hello")]).map((i) => i.split(":")[0]), [
    "flows.0.steps.2",
  ]);
  // Two requests of one name, or two ws steps of one name, pool as k6's tags do.
  assertEquals(issuesOf([get("a"), get("a"), { ws: { connect: "/ws" } }, hello, hello]), []);
});
