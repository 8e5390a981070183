/**
 * @module
 * k6's own gRPC example server, for the k6 examples bench (k6_examples.ts): the route guide of its
 * `examples/grpc_server/main.go` over `internal/lib/testutils/grpcservice` (a unary call, a server stream,
 * a client stream, health and reflection: what `grpc_*.js` call), as `go run examples/grpc_server/*.go`
 * in the k6 repository would serve it. Built with `go build` in a temporary module: the service package
 * copied beside main.go and its import path rewritten (it is internal to k6's module), the gRPC modules
 * those of bench/grpc_greeter. Run on a free loopback port and stopped after; null with why when Go or
 * the sources are missing.
 */
import { dirname, join } from "node:path";
import { findProgram } from "../system/path_lookup.ts";
import { freePort, waitForPort } from "../system/ports.ts";

const K6_SERVICE = "go.k6.io/k6/v2/internal/lib/testutils/grpcservice";
const GREETER = new URL("./grpc_greeter/", import.meta.url).pathname;

/** The server binary built from the k6 checkout `examples` is the `examples/` folder of, or why not. */
async function build(examples: string): Promise<{ path: string } | { why: string }> {
  const go = findProgram("go");
  if (go === null) return { why: "go not on PATH" };
  const service = join(dirname(examples), "internal/lib/testutils/grpcservice");
  let main: string;
  try {
    main = Deno.readTextFileSync(join(examples, "grpc_server/main.go"));
    Deno.statSync(join(service, "service.go"));
  } catch {
    return {
      why: `no k6 grpc_server sources beside ${examples} (examples/grpc_server, internal/lib/testutils)`,
    };
  }
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-grpc-" });
  Deno.mkdirSync(join(dir, "grpcservice"));
  for (const f of Deno.readDirSync(service)) {
    if (f.name.endsWith(".go")) Deno.copyFileSync(join(service, f.name), join(dir, "grpcservice", f.name));
  }
  Deno.writeTextFileSync(join(dir, "main.go"), main.replaceAll(K6_SERVICE, "k6routeguide/grpcservice"));
  const mod = Deno.readTextFileSync(join(GREETER, "go.mod")).replace(/^module .*$/m, "module k6routeguide");
  Deno.writeTextFileSync(join(dir, "go.mod"), mod);
  Deno.copyFileSync(join(GREETER, "go.sum"), join(dir, "go.sum"));
  const out = await new Deno.Command(go, {
    args: ["build", "-mod=mod", "-o", "server", "."],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) return { why: `go build failed: ${new TextDecoder().decode(out.stderr).slice(0, 300)}` };
  return { path: join(dir, "server") };
}

/** Runs `fn` with k6's example server up (`addr` is `127.0.0.1:port`), or with null and why it is not. */
export async function withK6GrpcServer<T>(
  examples: string,
  fn: (addr: string | null, why: string) => Promise<T>,
): Promise<T> {
  const built = await build(examples);
  if ("why" in built) return await fn(null, built.why);
  const port = freePort();
  const child = new Deno.Command(built.path, { args: [`-port=${port}`], stdout: "null", stderr: "null" })
    .spawn();
  try {
    if (!await waitForPort("127.0.0.1", port, 10_000)) return await fn(null, "the server did not listen");
    return await fn(`127.0.0.1:${port}`, "");
  } finally {
    child.kill();
    await child.status;
    Deno.removeSync(dirname(built.path), { recursive: true });
  }
}
