/**
 * @module
 * The schema of a gRPC run, three ways as ghz takes it: a `.proto` file with its imports, a protoset, or
 * the server's reflection answer. The call named `pkg.Service/Method` (or `pkg.Service.Method`) is found
 * in it, or `GrpcSchemaError` names what exists. Setup code, read once before the load or once per worker.
 */
import protobuf from "protobufjs";
import "protobufjs/ext/descriptor/index.js";
import "./protobuf_linear.ts";
import { existsSync } from "node:fs";
import { FileReadError, readFileCapped } from "../../../system/read_capped.ts";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { splitCall } from "./call.ts";

/** A schema that cannot be read, or a call it does not have; `hint` says what to do. */
export class GrpcSchemaError extends Error {
  constructor(message: string, readonly hint = "", options?: ErrorOptions) {
    super(message, options);
    this.name = "GrpcSchemaError";
  }
}

export type GrpcMethod = Readonly<ReturnType<typeof findMethod>>;

/** The largest schema file read (a .proto or a protoset); real ones are kilobytes. */
export const MAX_SCHEMA_BYTES = 16 * 2 ** 20;

/** `file` and its imports, looked up as protoc does (beside the importer, then `importPaths`: `-I`). */
export function loadProtoFile(file: string, importPaths: readonly string[] = []): protobuf.Root {
  const root = new protobuf.Root();
  const base = root.resolvePath;
  const find = (origin: string, target: string) => {
    if (origin === "") return resolve(target);
    if (isAbsolute(target) || target.split(/[\\/]/).includes("..")) {
      // Nothing of a file outside the schema's folders is read: an error would show its first token.
      const paths = [dirname(origin), ...importPaths.map((p) => resolve(p))].join(", ");
      throw new GrpcSchemaError(
        `--proto ${file}: import ${JSON.stringify(target)} leaves the import paths (${paths})`,
        'name an import by its path under an import path (-i DIR), without ".." or a leading "/"',
      );
    }
    const beside = join(dirname(origin), target);
    if (existsSync(beside)) return beside;
    for (const dir of importPaths) {
      const found = join(dir, target);
      if (existsSync(found)) return resolve(found);
    }
    return base(origin, target);
  };
  root.resolvePath = (origin, target) => {
    const path = find(origin, target);
    // protobufjs's own well-known types are not files; any other path must be a readable file.
    if (path !== null && existsSync(path)) readFileCapped(path, MAX_SCHEMA_BYTES);
    return path;
  };
  try {
    root.loadSync(resolve(file), { keepCase: true }).resolveAll();
    return root;
  } catch (err) {
    if (err instanceof GrpcSchemaError) throw err;
    const what = err instanceof Error ? err.message : String(err);
    const missing = /ENOENT|no such file/i.test(what);
    if (missing && !existsSync(file)) {
      throw new GrpcSchemaError(`--proto ${file}: no such file`, `give its path from ${Deno.cwd()}`);
    }
    const hint = missing ? "add the folder its imports are under with -i DIR" : "";
    throw new GrpcSchemaError(`--proto ${file}: ${what}`, hint, { cause: err });
  }
}

/** A FileDescriptorSet's bytes (a protoset file, or reflection's answers gathered) as a schema. */
export function rootOfDescriptorSet(bytes: Uint8Array, what: string): protobuf.Root {
  try {
    const root = (protobuf.Root as any).fromDescriptor(bytes) as protobuf.Root;
    root.resolveAll();
    return root;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new GrpcSchemaError(
      `${what}: not a FileDescriptorSet (${why})`,
      "make one with protoc --descriptor_set_out=FILE --include_imports",
      { cause: err },
    );
  }
}

export function loadProtoset(file: string): protobuf.Root {
  let bytes: Uint8Array;
  try {
    bytes = readFileCapped(file, MAX_SCHEMA_BYTES);
  } catch (err) {
    const why = err instanceof FileReadError ? err.reason : (err as Error).message;
    throw new GrpcSchemaError(`--protoset ${file}: cannot read it (${why})`, "", { cause: err });
  }
  return rootOfDescriptorSet(bytes, `--protoset ${file}`);
}

/** Every service under `ns` (the schema's root), depth first. */
function servicesOf(ns: protobuf.NamespaceBase): protobuf.Service[] {
  const inner = (c: protobuf.ReflectionObject) => c instanceof protobuf.Namespace ? servicesOf(c) : [];
  return ns.nestedArray.flatMap((c) => c instanceof protobuf.Service ? [c, ...inner(c)] : inner(c));
}

const nameOf = (o: protobuf.ReflectionObject) => o.fullName.replace(/^\./, "");

/** The method `call` names in `root`; a `GrpcSchemaError` naming what exists when it is not there. */
export function findMethod(root: protobuf.Root, call: string) {
  const parts = splitCall(call);
  if (parts === null) {
    throw new GrpcSchemaError(`--call ${JSON.stringify(call)}: expected pkg.Service/Method`);
  }
  const services = servicesOf(root);
  const service = services.find((s) => nameOf(s) === parts[0]);
  if (service === undefined) {
    const known = services.map(nameOf).sort().join(", ") || "none";
    throw new GrpcSchemaError(`no service ${parts[0]} in the schema (its services: ${known})`);
  }
  const method = service.methods[parts[1]];
  if (method === undefined) {
    const known = Object.keys(service.methods).sort().join(", ");
    throw new GrpcSchemaError(`no method ${parts[1]} in ${parts[0]} (its methods: ${known})`);
  }
  method.resolve();
  return {
    /** `pkg.Service/Method` (the request's path without its slash). */
    path: `${parts[0]}/${parts[1]}`,
    requestType: method.resolvedRequestType!,
    responseType: method.resolvedResponseType!,
    clientStreaming: method.requestStream === true,
    serverStreaming: method.responseStream === true,
  };
}
