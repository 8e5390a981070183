import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parse } from "yaml";
import { artilleryToExperiment } from "../../tests/artillery_import.ts";
import { ArtilleryError } from "./common.ts";

function stepNames(yaml: string): unknown[] {
  const exp = artilleryToExperiment(parse(yaml)).experiment as {
    flows: { steps: Record<string, { name?: string }>[] }[];
  };
  return exp.flows.flatMap((f) => f.steps.flatMap((s) => Object.values(s).map((r) => r.name)));
}

const FLOW = `
scenarios:
  - flow:
      - get: { url: "/items/{{ id }}", qs: { page: 2 } }
      - post: { url: /login, name: login }
      - get: { url: "/search?q=1" }
`;

Deno.test("requests are named as Artillery's metrics-by-endpoint names them, by default and with its options", () => {
  const head = (plugin: string) =>
    `config:\n  target: http://h:1/api\n  phases: [{ duration: 1, arrivalRate: 1 }]\n  variables: { id: 7 }\n${plugin}`;
  // The url as written after the target's path: templates unfilled, qs left out, the name in brackets; with
  // no options Artillery 2 strips the query string, with options only when they say so.
  assertEquals(stepNames(head("") + FLOW), ["/api/items/{{ id }}", "/api/login (login)", "/api/search"]);
  assertEquals(
    stepNames(head("  plugins: { metrics-by-endpoint: {} }\n") + FLOW),
    ["/api/items/{{ id }}", "/api/login (login)", "/api/search?q=1"],
  );
  assertEquals(
    stepNames(head("  plugins: { metrics-by-endpoint: { useOnlyRequestNames: true } }\n") + FLOW),
    ["/api/items/{{ id }}", "login", "/api/search?q=1"],
  );
  assertEquals(
    stepNames(
      head("  plugins: { metrics-by-endpoint: { stripQueryString: true, metricsNamespace: x } }\n") + FLOW,
    ),
    ["/api/items/{{ id }}", "/api/login (login)", "/api/search"],
  );
});

Deno.test("metrics-by-endpoint options loadlab cannot honour are issues naming their path", () => {
  const script = `
config:
  target: http://h:1
  phases: [{ duration: 1, arrivalRate: 1 }]
  plugins: { metrics-by-endpoint: { groupDynamicURLs: false, ignoreUnnamedRequests: true, useOnlyRequestNames: 1 } }
scenarios: [{ flow: [{ get: { url: / } }] }]
`;
  try {
    artilleryToExperiment(parse(script));
    throw new Error("expected an ArtilleryError");
  } catch (err) {
    if (!(err instanceof ArtilleryError)) throw err;
    assertEquals(err.issues.map((i) => i.path).sort(), [
      "config.plugins.metrics-by-endpoint.groupDynamicURLs",
      "config.plugins.metrics-by-endpoint.ignoreUnnamedRequests",
      "config.plugins.metrics-by-endpoint.useOnlyRequestNames",
    ]);
  }
});
