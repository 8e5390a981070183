import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import { ConfigError } from "../../validation/config_error.ts";
import { encodeFlows } from "./flow_plan.ts";

const url = "http://127.0.0.1:8080";
const getA = { request: { path: "/a" } };

function issuesOf(input: AttackConfigInput): Array<{ path: string; message: string }> {
  try {
    parseAttackConfig(input);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

Deno.test("encodeFlows: request steps encoded once with exact bytes, labels, leading think", () => {
  const config = parseAttackConfig({
    url,
    model: "count",
    requests: 1,
    flows: [{
      name: "f",
      steps: [
        { thinkMs: 50 },
        getA,
        { thinkMs: 10 },
        { request: { method: "POST", path: "/b", body: new TextEncoder().encode("hi") }, label: "post b" },
      ],
    }],
  });
  const [flow] = encodeFlows(new URL(url), config.flows!);
  assertEquals([flow.name, flow.labels, flow.leadingThinkMs], ["f", ["GET /a", "post b"], 50]);
  assertEquals(flow.steps.map((s) => s.kind), ["think", "request", "think", "request"]);
  const post = flow.steps[3];
  ok(post.kind === "request");
  assertEquals(post.stepIndex, 1);
  assertEquals(
    new TextDecoder().decode(post.request.bytes),
    "POST /b HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: loadlab\r\nContent-Length: 2\r\n\r\nhi",
  );
});

Deno.test("flows config: defaults (weight 1, keep-alive) and the connection field", () => {
  const config = parseAttackConfig({ url, model: "connections", flows: [{ name: "f", steps: [getA] }] });
  assertEquals([config.flows?.[0].weight, config.connection], [1, "keep-alive"]);
  const perArrival = parseAttackConfig({
    url,
    model: "rate",
    phases: [{ durationMs: 1000, ratePerSec: 1 }],
    connection: "per-arrival",
  });
  assertEquals(perArrival.connection, "per-arrival");
});

Deno.test("flows config: the throughput model, a request mix and pipelining are errors that say why", () => {
  const flows = [{ name: "f", steps: [getA] }];
  const throughput = issuesOf({ url, model: "throughput", ratePerSec: 10, flows });
  assertEquals(throughput.map((i) => i.path), ["flows"]);
  ok(/throughput/.test(throughput[0].message), throughput[0].message);
  const mix = issuesOf({ url, model: "connections", flows, requestMix: [{ path: "/x" }] });
  assertEquals(mix.map((i) => i.path), ["requestMix"]);
  ok(/exclude each other/.test(mix[0].message), mix[0].message);
  assertEquals(issuesOf({ url, model: "connections", flows, pipelining: 2 }).map((i) => i.path), [
    "pipelining",
  ]);
});

Deno.test("flows config: a flow without a request step, a negative think, an unknown step key", () => {
  const noRequest = issuesOf({ url, model: "connections", flows: [{ name: "f", steps: [{ thinkMs: 5 }] }] });
  assertEquals(noRequest.map((i) => i.path), ["flows[0].steps"]);
  ok(/at least one request, ws or grpc step/.test(noRequest[0].message), noRequest[0].message);
  throws(() =>
    parseAttackConfig({ url, model: "connections", flows: [{ name: "f", steps: [getA, { thinkMs: -1 }] }] })
  );
  throws(() => parseAttackConfig({ url, model: "connections", flows: [] }));
  const unknown = issuesOf(
    { url, model: "connections", flows: [{ name: "f", steps: [getA, { get: "/b" }] }] } as never,
  );
  ok(
    unknown.some((i) => i.path === "flows[0].steps[1].get" && /unknown key/.test(i.message)),
    JSON.stringify(unknown),
  );
});
