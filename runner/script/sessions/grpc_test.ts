/**
 * A session script's gRPC declaration (`export const grpc`): read relative to the script's folder, its
 * methods found once each, and every wrong shape refused naming the field and what it takes; a call's
 * HEADERS frames kept and shared only between calls that would encode the same ones.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { ScriptGrpcRequests } from "./grpc.ts";
import { loadGrpcDeclaration } from "./grpc_schema.ts";
import { grpcRequestSpec } from "../../http/grpc/call.ts";
import { encodeH2Request } from "../../http/h2/request.ts";
import { frameMessage } from "../../../grpc/framing.ts";

const EXAMPLES = new URL("../../../examples/", import.meta.url).pathname;

Deno.test("a declared proto is read relative to the script's folder; a method is looked up once", () => {
  const schema = loadGrpcDeclaration({ proto: "grpc/greeter.proto", maxReceiveBytes: 1024 }, EXAMPLES);
  const method = schema.method("helloworld.Greeter/SayHellos");
  assertEquals([method.path, method.serverStreaming, schema.maxReceiveBytes], [
    "helloworld.Greeter/SayHellos",
    true,
    1024,
  ]);
  assertEquals(schema.method("helloworld.Greeter/SayHellos"), method);
  throws(() => schema.method("helloworld.Greeter/Nope"), /no method Nope in helloworld\.Greeter/);
});

Deno.test("a declaration of the wrong shape names its field and what it takes", () => {
  const refused = (declared: unknown) => {
    try {
      loadGrpcDeclaration(declared, EXAMPLES);
    } catch (err) {
      return (err as Error).message;
    }
    return "accepted";
  };
  assertEquals(
    refused("greeter.proto"),
    'export grpc: must be { proto: "./x.proto", importPaths?: [...] } or { protoset: "./x.pb" }',
  );
  assertEquals(
    refused({}),
    "export grpc: give the schema as proto (with importPaths) or protoset, one of them",
  );
  assertEquals(
    refused({ proto: "a", protoset: "b" }),
    "export grpc: give the schema as proto (with importPaths) or protoset, one of them",
  );
  assertEquals(
    refused({ proto: "a", call: "x" }),
    "export grpc.call: not a field (proto, importPaths, protoset, maxReceiveBytes)",
  );
  assertEquals(refused({ proto: "a", importPaths: "b" }), "export grpc.importPaths: a list of folders");
  assertEquals(
    refused({ proto: "a", maxReceiveBytes: 0 }),
    "export grpc.maxReceiveBytes: a whole number of bytes, 1 to 2^31-1",
  );
  throws(() => loadGrpcDeclaration({ proto: "no_such.proto" }, EXAMPLES), /--proto .*no_such\.proto/);
});

Deno.test("a call's HEADERS frames are encoded once per path, fields and body length, each call its own body", () => {
  const url = new URL("http://127.0.0.1:50051/");
  const requests = new ScriptGrpcRequests(url);
  const call = (metadata: [string, string][], body: Uint8Array<ArrayBuffer>) =>
    grpcRequestSpec({ method: "helloworld.Greeter/SayHello", message: body, metadata }, 2_000);
  const one = call([["authorization", "Bearer a"]], new Uint8Array([10, 1, 97]));
  const first = requests.request(one);
  const again = requests.request(call([["authorization", "Bearer a"]], new Uint8Array([10, 1, 98])));
  assertEquals(again.frames === first.frames, true);
  assertEquals([...again.body!], [...frameMessage(new Uint8Array([10, 1, 98]))]);
  assertEquals(first.frames, encodeH2Request(url, one, [], false, true).frames);
  const other = requests.request(call([["authorization", "Bearer b"]], new Uint8Array([10, 1, 97])));
  assertEquals(other.frames === first.frames, false);
  const longer = requests.request(call([["authorization", "Bearer a"]], new Uint8Array([10, 2, 97, 97])));
  assertEquals(longer.frames === first.frames, false);
  throws(() => requests.request(call([["authorization", "a\nb"]], new Uint8Array([10, 1, 97]))));
});
