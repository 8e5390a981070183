/**
 * gRPC steps in an experiment's flows, end to end against the built-in target's gRPC endpoints
 * (targets/app/grpc_endpoints.ts, served in this process): a session fills a step's message from its data
 * row, captures a reply field (proto3 JSON) into the next step's message, checks a server stream's
 * replies, and each step's method is an endpoint with its own numbers; a row the server refuses fails its
 * session with the status's error kind. The schema is a protoset there (a .proto in the other cases). What
 * cannot fit (an unknown method, a field the type does not have, no grpc: section, a name nothing gives) is a
 * problem of the file at the step's path.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { serveGrpcTarget } from "../targets/app/grpc_endpoints.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { loadPlan } from "../scenarios/load.ts";
import { ExperimentError } from "../scenarios/experiment_error.ts";
import protobuf from "protobufjs";
import "protobufjs/ext/descriptor/index.js";
import { loadProtoFile } from "../runner/http/grpc/schema.ts";

const PROTO = new URL("../targets/app/target.proto", import.meta.url).pathname;

function file(port: number, steps: string, section = `grpc: { proto: ${PROTO} }`): string {
  return `name: grpc-flow
targets:
  app: { url: "http://127.0.0.1:${port}" }
data:
  work: { file: work.csv }
${section}
flows:
  - name: chain
    data: work
    steps:
${steps}
loads:
  rows: { model: count, requests: 12, connections: 1, streams: 2, timeout: 5s }
`;
}

const STEPS = `      - grpc: { call: loadlab.target.Target/Cpu, message: { n: "{{ n }}" } }
        capture: [{ json: "$.value", as: fib }]
        expect: [{ json: "$.value", equals: "{{ fib_n }}" }]
      - think: 5ms
      - grpc: { call: loadlab.target.Target.Sleep, message: { n: "{{ fib }}" }, metadata: { x-row: "{{ n }}" } }
        label: sleep fib
      - grpc: { call: loadlab.target.Target/Stream, message: { n: 3, size: 4 } }
        expect: [{ json: "$[2].data", exists: true }, { json: "$[3]", exists: false }]
      - grpc: { call: loadlab.target.Target/Echo, message: { data: "{{ tok }}" } }
        expect: [{ json: "$.data", equals: "{{ tok }}" }]`;

Deno.test("gRPC steps: data rows fill messages, a reply field is captured into the next call, checks read replies", async () => {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  try {
    await withTempDir(async (dir) => {
      // fib(5) = 5, fib(6) = 8; 99 is out of the server's range (INVALID_ARGUMENT).
      await Deno.writeTextFile(`${dir}/work.csv`, "n,fib_n,tok\n5,5,aGk=\n6,8,Ym9uam91cg==\n99,0,eA==\n");
      // The schema as a protoset (a FileDescriptorSet, as protoc --descriptor_set_out writes it).
      const set = (loadProtoFile(PROTO) as unknown as { toDescriptor(s: string): unknown }).toDescriptor(
        "proto3",
      );
      // deno-lint-ignore no-explicit-any
      await Deno.writeFile(
        `${dir}/target.protoset`,
        (protobuf as any).descriptor.FileDescriptorSet.encode(set).finish(),
      );
      await Deno.writeTextFile(
        `${dir}/exp.yaml`,
        file(server.port, STEPS, "grpc: { protoset: target.protoset }"),
      );
      const r = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
      ok(r.code === 0 || r.code === 1, r.stdout + r.stderr);
      const run = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs[0];
      const [flow] = run.flows;
      // 12 sessions, one row each in turn: 8 complete, the 4 on row 99 fail at their first step.
      assertEquals([flow.sessions, flow.completed, flow.failed], [12, 8, 4]);
      assertEquals(flow.steps.map((s: { label: string; requests: number }) => [s.label, s.requests]), [
        ["loadlab.target.Target/Cpu", 8],
        ["sleep fib", 8],
        ["loadlab.target.Target/Stream", 8],
        ["loadlab.target.Target/Echo", 8],
      ]);
      // The row's bytes went out in the message and came back in the reply, base64 as the row wrote them.
      assertEquals(flow.steps[3].checks, [{ name: '$.data == "{{ tok }}"', passed: 8, failed: 0 }]);
      assertEquals(flow.steps[0].checks, [{ name: '$.value == "{{ fib_n }}"', passed: 8, failed: 0 }]);
      assertEquals(flow.steps[2].checks.map((c: { passed: number }) => c.passed), [8, 8]);
      assertEquals([run.errors, run.statusCodes["grpc INVALID_ARGUMENT"]], [{}, 4]);
      // results.json names the schema by its size, as it does bodies.
      assertEquals([run.config.grpc.schema, run.config.grpc.schemaBytes > 100], [undefined, true]);
      // Each step's method is an endpoint: its responses, and its failures by kind.
      const endpoints = Object.fromEntries(
        run.endpoints.map((
          e: { name: string; requests: number; errors: unknown },
        ) => [e.name, [e.requests, e.errors]]),
      );
      assertEquals(endpoints, {
        "loadlab.target.Target/Cpu": [12, {}],
        "sleep fib": [8, {}],
        "loadlab.target.Target/Stream": [8, {}],
        "loadlab.target.Target/Echo": [8, {}],
      });
    });
  } finally {
    await server.close();
  }
});

async function problems(text: string): Promise<string[]> {
  try {
    await loadPlan(text);
  } catch (err) {
    if (err instanceof ExperimentError) return err.issues.map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
  throw new Error("expected an ExperimentError");
}

Deno.test("a gRPC step that cannot fit is a problem of the file at its path", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/work.csv`, "n,fib_n,tok\n5,5,eA==\n");
    const at = (steps: string, section?: string) => {
      const text = file(1, steps, section).replace("file: work.csv", `file: ${dir}/work.csv`);
      return problems(text);
    };
    const one = (step: string) => `      - grpc: ${step}`;
    const [method] = await at(one("{ call: loadlab.target.Target/Nope }"));
    ok(
      method.startsWith(
        "flows[0].steps[0].grpc.call: no method Nope in loadlab.target.Target (its methods: Cpu",
      ),
      method,
    );
    const [field] = await at(one('{ call: loadlab.target.Target/Cpu, message: { nn: "{{ n }}" } }'));
    ok(field.startsWith("flows[0].steps[0].grpc.message.nn: loadlab.target.Work has no field nn"), field);
    const [name] = await at(one('{ call: loadlab.target.Target/Cpu, message: { n: "{{ m }}" } }'));
    ok(name.startsWith("flows[0].steps[0].grpc: {{ m }} is unknown"), name);
    const [none] = await at(one("{ call: loadlab.target.Target/Cpu }"), "");
    ok(
      none.startsWith("flows[0].steps[0].grpc: a gRPC step calls by the file's grpc: section's schema"),
      none,
    );
    const [reserved] = await at(one("{ call: loadlab.target.Target/Cpu, metadata: { te: x } }"));
    ok(reserved.startsWith("flows[0].steps[0].grpc.metadata.te: gRPC sets this field itself"), reserved);
    // A built-in target serves gRPC steps on its gRPC endpoints only: grpc: true.
    const builtin = await problems(
      file(1, one("{ call: loadlab.target.Target/Cpu }"), "grpc: {}")
        .replace(/app: \{ url: "[^"]*" \}/, "app: { kind: builtin }")
        .replace("file: work.csv", `file: ${dir}/work.csv`),
    );
    ok(
      builtin.some((p) => p.startsWith("targets.app: ") && p.includes("add grpc: true")),
      builtin.join("\n"),
    );
    const [mixed] = await at(`${one("{ call: loadlab.target.Target/Cpu }")}\n      - get: /json`);
    ok(mixed.includes("a gRPC run's flows make gRPC calls only"), mixed);
  });
});
