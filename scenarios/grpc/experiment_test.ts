import assert from "node:assert/strict";
import { ExperimentError } from "../experiment_error.ts";
import { loadPlan } from "../load.ts";

const PROTO = new URL("../../examples/grpc/greeter.proto", import.meta.url).pathname;
const FILE = `
name: grpc-file
targets:
  go: { url: "http://127.0.0.1:1" }
grpc:
  call: helloworld.Greeter/SayHello
  proto: ${PROTO}
  message: { name: "from a file" }
  metadata: { x-user: ann }
loads:
  closed: { model: connections, connections: 2, streams: 8, duration: 1s, timeout: 2s }
  h2c: { model: rate, rate: 10, duration: 1s, protocol: h2c }
`;

async function problems(text: string): Promise<string[]> {
  try {
    await loadPlan(text);
  } catch (err) {
    if (err instanceof ExperimentError) return err.issues.map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
  assert.fail("expected an ExperimentError");
}

Deno.test("a grpc: section makes every load's requests the call, encoded once, over HTTP/2", async () => {
  const runs = (await loadPlan(FILE)).runs;
  const closed = runs.find((r) => r.load === "closed")!.attack;
  assert.deepEqual([closed.protocol, closed.grpc, closed.streams], ["h2", {
    maxReceiveBytes: 4 * 1024 * 1024,
  }, 8]);
  const [spec] = closed.requestMix!;
  assert.deepEqual([spec.method, spec.path, spec.name], [
    "POST",
    "/helloworld.Greeter/SayHello",
    "helloworld.Greeter/SayHello",
  ]);
  // Each load's own timeout is its deadline.
  assert.deepEqual(spec.headers, [["content-type", "application/grpc"], ["te", "trailers"], [
    "grpc-timeout",
    "2000m",
  ], [
    "x-user",
    "ann",
  ]]);
  assert.deepEqual([...(spec.body as Uint8Array)].slice(0, 7), [0, 0, 0, 0, 13, 0x0a, 11]);
  const open = runs.find((r) => r.load === "h2c")!.attack;
  assert.deepEqual([open.protocol, open.requestMix![0].headers?.[2]], ["h2c", ["grpc-timeout", "10000m"]]);
});

Deno.test("an unknown method, a message that does not fit, no schema: problems of the file at their paths", async () => {
  assert.deepEqual(await problems(FILE.replace("Greeter/SayHello", "Greeter/Nope")), [
    "grpc.call: no method Nope in helloworld.Greeter (its methods: Chat, Collect, Fail, Metadata, SayHello, SayHellos, Sleep)",
  ]);
  const [bad] = await problems(FILE.replace('{ name: "from a file" }', "{ detail: { idz: 1 } }"));
  assert.match(bad, /^grpc\.message\.detail\.idz: helloworld\.Detail has no field idz/);
  // No schema: the built-in target's, which has no Greeter.
  const [none] = await problems(FILE.replace(`  proto: ${PROTO}\n`, ""));
  assert.match(none, /^grpc\.call: no service helloworld\.Greeter.*loadlab\.target\.Target/);
  const [missing] = await problems(FILE.replace(PROTO, "nowhere.proto"));
  assert.match(missing, /^grpc\.proto: --proto .*nowhere\.proto/);
});

Deno.test("compress: gzip in a file compresses the call's message, as --compress gzip does", async () => {
  const zipped = (await loadPlan(
    FILE.replace("  metadata: { x-user: ann }", "  metadata: { x-user: ann }\n  compress: gzip"),
  ))
    .runs[0].attack;
  const [spec] = zipped.requestMix!;
  assert.deepEqual(spec.headers?.slice(3, 5), [["grpc-encoding", "gzip"], ["grpc-accept-encoding", "gzip"]]);
  assert.equal((spec.body as Uint8Array)[0], 1);
  assert.match(
    (await problems(
      FILE.replace("  metadata: { x-user: ann }", "  metadata: { x-user: ann }\n  compress: br"),
    ))[0],
    /^grpc\.compress: /,
  );
});

Deno.test("grpc.loads: only the loads named make the call, the others keep their HTTP requests", async () => {
  const file = `
name: grpc-beside-json
targets:
  builtin: { kind: builtin, grpc: true }
requests: [{ method: POST, path: /echo, json: { data: "eHh4" } }]
grpc:
  call: loadlab.target.Target/Echo
  message: { data: "eHh4" }
  loads: [rpc]
loads:
  json: { model: connections, connections: 1, duration: 1s }
  rpc: { model: connections, connections: 1, duration: 1s }
expect:
  - { metric: rps, better: json, than: rpc, between: loads }
`;
  const runs = (await loadPlan(file)).runs;
  const json = runs.find((r) => r.load === "json")!.attack;
  const rpc = runs.find((r) => r.load === "rpc")!.attack;
  assert.deepEqual([json.grpc, json.requestMix![0].path], [undefined, "/echo"]);
  // No proto: the built-in target's schema; Payload's bytes field 1 of 3 bytes.
  assert.equal(rpc.requestMix![0].path, "/loadlab.target.Target/Echo");
  assert.deepEqual([...(rpc.requestMix![0].body as Uint8Array)], [0, 0, 0, 0, 5, 0x0a, 3, 0x78, 0x78, 0x78]);
  assert.deepEqual(
    await problems(
      file.replace("loads: [rpc]", "loads: [rcp]").replace(
        "between: loads }",
        "between: loads, load: json }",
      ),
    ),
    [
      "expect[0].load: between: loads compares two loads: drop load",
      'grpc.loads[0]: no load named "rcp"; did you mean "rpc"?',
    ],
  );
});

Deno.test("a built-in target a grpc: section calls needs grpc: true, on one instance: problems at its path", async () => {
  const file = `
name: grpc-builtin
targets:
  plain: { kind: builtin }
  many: { kind: builtin, grpc: true, instances: 2 }
grpc:
  call: loadlab.target.Target/Echo
loads:
  rpc: { model: connections, connections: 1, duration: 1s }
`;
  assert.deepEqual(await problems(file), [
    "targets.plain: the grpc: section's calls need the built-in target's gRPC endpoints: add grpc: true",
    "targets.many.grpc: grpc: true serves one instance's gRPC endpoints, not 2: drop instances (or set it to 1)",
  ]);
});
