/**
 * An experiment's `grpc: { reflect: true }`, end to end against @grpc/grpc-js's greeter
 * (examples/grpc/server.js, which serves reflection; needs `npm install --prefix examples`): the schema is
 * asked of the server when the run starts, the section's call (ghz's `pkg.Service.Method` form, its message
 * a template) made from it, a flow's gRPC steps called by it (a reply field captured into the next call),
 * loads run `together:` each made from it; a method the server does not have ends the run with exit 2 naming
 * the ones it has.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { nodeGreeterSkip, withNodeGreeter } from "./fixtures/node_greeter.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";

const skip = nodeGreeterSkip("grpc_reflect_file_test", "@grpc/reflection");

async function run(dir: string, yaml: string) {
  await Deno.writeTextFile(`${dir}/exp.yaml`, yaml);
  const r = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
  const results = r.code === 0 ? JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)) : null;
  return { ...r, run: results?.runs[0] };
}

Deno.test({
  name: "reflect: true in a file: the call, a template message and flow steps made from the server's schema",
  ignore: skip !== null,
  fn: () =>
    withNodeGreeter((port) =>
      withTempDir(async (dir) => {
        const head = `name: reflect
targets:
  node: { url: "http://127.0.0.1:${port}" }
`;
        const call = await run(
          dir,
          `${head}grpc:
  reflect: true
  call: helloworld.Greeter.SayHello
  message: { name: "{{ $randomString(6) }}" }
loads:
  calls: { model: count, requests: 20, connections: 1, streams: 4, timeout: 5s }
`,
        );
        assertEquals(call.code, 0, call.stdout + call.stderr);
        assertEquals([call.run.requests, call.run.errors, call.run.statusCodes], [20, {}, { "200": 20 }]);
        assertEquals(call.run.endpoints.map((e: { name: string }) => e.name), [
          "helloworld.Greeter/SayHello",
        ]);

        const flow = await run(
          dir,
          `${head}grpc: { reflect: true }
flows:
  - name: twice
    steps:
      - grpc: { call: helloworld.Greeter/SayHello, message: { name: ann } }
        capture: [{ json: $.message, as: greeting }]
      - grpc: { call: helloworld.Greeter/SayHello, message: { name: "{{ greeting }}" } }
        label: again
        expect: [{ json: $.message, equals: "Hello Hello ann" }]
loads:
  sessions: { model: count, requests: 6, connections: 2, timeout: 5s }
`,
        );
        assertEquals(flow.code, 0, flow.stdout + flow.stderr);
        const [f] = flow.run.flows;
        assertEquals([f.sessions, f.completed, f.steps[1].checks[0].passed], [6, 6, 6]);

        // Loads run together ask the server for the schema as a lone load does.
        const together = await run(
          dir,
          `${head}grpc:
  reflect: true
  call: helloworld.Greeter/SayHello
  message: { name: ann }
together: { first: 0s, second: 0s }
loads:
  first: { model: count, requests: 8, connections: 1, streams: 2, timeout: 5s }
  second: { model: count, requests: 6, connections: 1, streams: 2, timeout: 5s }
`,
        );
        assertEquals(together.code, 0, together.stdout + together.stderr);
        assertEquals([together.run.requests, together.run.errors], [14, {}]);

        const unknown = await run(
          dir,
          `${head}grpc: { reflect: true, call: helloworld.Greeter/Nope }
loads:
  calls: { model: count, requests: 2, connections: 1 }
`,
        );
        assertEquals(unknown.code, 2, unknown.stdout + unknown.stderr);
        ok(unknown.stderr.includes("no method Nope in helloworld.Greeter (its methods: "), unknown.stderr);
      })
    ),
});
