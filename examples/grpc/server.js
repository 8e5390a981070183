/**
 * @module
 * A gRPC greeter on @grpc/grpc-js (greeter.proto): the server loadlab's gRPC conformance tests call, written
 * by another project's rules. Unary, server stream, client stream, bidi, a chosen failure status, a sleep (it
 * honours the deadline as grpc-js does) and the call's metadata echoed; server reflection (v1 and v1alpha).
 * `PORT` (0: any free one) and `HOST` from the environment; prints `READY <port>` once it listens. With
 * `TLS_CERT` and `TLS_KEY` (PEM files) it speaks TLS.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as loader from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import descriptor from "protobufjs/ext/descriptor/index.js";
import { HOST, stopOnSignal } from "../shared.js";

const protoPath = fileURLToPath(new URL("./greeter.proto", import.meta.url));
const definition = loader.loadSync(protoPath, {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
});
const { helloworld } = grpc.loadPackageDefinition(definition);
const { FileDescriptorProto } = descriptor;

const greeter = {
  SayHello: (call, done) => done(null, { message: `Hello ${call.request.name}` }),
  SayHellos: (call) => {
    const count = call.request.count;
    let k = 0;
    const next = () => {
      if (call.cancelled) return;
      if (count >= 0 && k >= count) return call.end();
      call.write({ message: `Hello ${call.request.name} ${k++}` });
      setTimeout(next, count < 0 ? 10 : 0);
    };
    next();
  },
  Fail: (call, done) => done({ code: call.request.code, details: call.request.message }),
  Sleep: (call, done) => {
    const timer = setTimeout(() => done(null, { message: `slept ${call.request.ms}` }), call.request.ms);
    call.on("cancelled", () => clearTimeout(timer));
  },
  Metadata: (call, done) => {
    const pairs = Object.entries(call.metadata.getMap())
      .filter(([name]) => !["user-agent", "content-type", "te", "grpc-accept-encoding"].includes(name))
      .map(([name, value]) => `${name}=${Buffer.isBuffer(value) ? value.toString("hex") : value}`);
    done(null, { message: pairs.sort().join(";") });
  },
  Chat: (call) => {
    call.on("data", (request) => call.write({ message: `Hello ${request.name}` }));
    call.on("end", () => call.end());
  },
  // A message's `count` ends the call with that status instead, the names its message (as Fail's).
  Collect: (call, done) => {
    const names = [];
    let code = 0;
    call.on("data", (request) => (names.push(request.name), code ||= request.count));
    call.on("end", () => done(code ? { code, details: names.join(",") } : null, { message: names.join() }));
  },
};

// MAX_CONNECTION_AGE_MS: each connection ends with GOAWAY at that age (a server behind a rolling deploy).
const age = Number(process.env.MAX_CONNECTION_AGE_MS ?? 0);
const server = new grpc.Server(age > 0 ? { "grpc.max_connection_age_ms": age } : {});
server.addService(helloworld.Greeter.service, greeter);
const reflection = new ReflectionService(definition);
// @grpc/reflection links each file to the files its types come from but leaves the file's imports empty
// (proto-loader regroups files by package): list them, or a client resolving the answer (ghz, grpcurl)
// finds no google.protobuf.Empty.
for (const impl of [reflection.v1, reflection.v1Alpha]) {
  for (const [file, deps] of impl.fileDependencies) {
    file.dependency = deps.map((dep) => dep.name);
    impl.fileEncodings.set(file, FileDescriptorProto.encode(file).finish());
  }
}
reflection.addToServer(server);
const tls = process.env.TLS_CERT && process.env.TLS_KEY;
const credentials = tls
  ? grpc.ServerCredentials.createSsl(null, [{
    cert_chain: readFileSync(process.env.TLS_CERT),
    private_key: readFileSync(process.env.TLS_KEY),
  }])
  : grpc.ServerCredentials.createInsecure();
server.bindAsync(`${HOST}:${process.env.PORT ?? 0}`, credentials, (err, port) => {
  if (err) throw err;
  console.log(`READY ${port}`);
});
stopOnSignal(() => server.forceShutdown());
