/**
 * @module
 * The schema of a gRPC run, three ways as ghz takes it: a `.proto` file with its imports, a protoset, or
 * the server's reflection answer; and the call it names. Setup code, read before the load or per worker.
 */
import protobuf from "protobufjs";
import "protobufjs/ext/descriptor/index.js";
import "./protobuf_linear.ts";
import { existsSync } from "node:fs";
import { FileReadError, readFileCapped, readOrRefuse } from "../../../system/read_capped.ts";
import { dirname, isAbsolute, resolve } from "node:path";
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
  // As protoc and ghz: the file itself, when not at its path, is found under an import path as an import is.
  const top = [".", ...importPaths].map((dir) => resolve(dir, file)).find(existsSync) ?? resolve(file);
  const root = new protobuf.Root();
  const base = root.resolvePath;
  const find = (origin: string, target: string) => {
    if (origin === "") return target === top ? top : resolve(target);
    if (isAbsolute(target) || target.split(/[\\/]/).includes("..")) {
      // Nothing of a file outside the schema's folders is read: an error would show its first token.
      const paths = [dirname(origin), ...importPaths.map((p) => resolve(p))].join(", ");
      throw new GrpcSchemaError(
        `--proto ${file}: import ${JSON.stringify(target)} leaves the import paths (${paths})`,
        'name an import by its path under an import path (-i DIR), without ".." or a leading "/"',
      );
    }
    const found = [dirname(origin), ...importPaths].map((dir) => resolve(dir, target)).find(existsSync);
    return found ?? base(origin, target);
  };
  root.resolvePath = (origin, target) => {
    const path = find(origin, target);
    // protobufjs's own well-known types are not files; the schema and any other path must be readable files.
    if (path !== null && (path === top || existsSync(path))) readFileCapped(path, MAX_SCHEMA_BYTES);
    return path;
  };
  try {
    return withStructs(root.loadSync(top, { keepCase: true }));
  } catch (err) {
    if (err instanceof GrpcSchemaError) throw err;
    if (err instanceof FileReadError) {
      const ours = err.path === top;
      const fix = ours ? `give a .proto file's path from ${Deno.cwd()}` : "give its imports as .proto files";
      throw new GrpcSchemaError(`--proto ${file}: cannot read ${err.message}`, fix, { cause: err });
    }
    const what = err instanceof Error ? err.message : String(err);
    const hint = /ENOENT|no such file/i.test(what) ? "add the folder its imports are under with -i DIR" : "";
    throw new GrpcSchemaError(`--proto ${file}: ${what}`, hint, { cause: err });
  }
}

const PROTOSET_FIX = "make one with protoc --descriptor_set_out=FILE --include_imports";

/** A FileDescriptorSet's bytes (a protoset file, or reflection's answers gathered) as a schema. */
export function rootOfDescriptorSet(bytes: Uint8Array, what: string): protobuf.Root {
  try {
    return withStructs((protobuf.Root as any).fromDescriptor(bytes) as protobuf.Root);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new GrpcSchemaError(`${what}: not a FileDescriptorSet (${why})`, PROTOSET_FIX, { cause: err });
  }
}

/**
 * `root` resolved, with protobuf's Struct, Value and Empty, which a Go client knows without a file: an Any
 * in a message may hold them whatever the schema imports.
 */
function withStructs(root: protobuf.Root): protobuf.Root {
  for (const [name, file] of [["Struct", "struct"], ["Empty", "empty"]]) {
    if (root.lookup(`google.protobuf.${name}`) === null) root.loadSync(`google/protobuf/${file}.proto`);
  }
  root.resolveAll();
  return root;
}

export function loadProtoset(file: string): protobuf.Root {
  const bytes = readOrRefuse(
    () => readFileCapped(file, MAX_SCHEMA_BYTES),
    (why, cause) => new GrpcSchemaError(`--protoset ${file}: cannot read: ${why}`, PROTOSET_FIX, cause),
  );
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
