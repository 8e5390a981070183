/**
 * @module
 * Test certificates for the TLS tests: a throwaway CA, a server certificate it signed for `localhost`
 * and 127.0.0.1, a client certificate, and a key that fits neither, made with the openssl program into
 * a temp folder (test fixtures only; loadlab itself never shells out for certificates).
 */
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { epollBlocker } from "../runner/http/transport/choice.ts";
import { type RunningNginx, startNginx } from "../bench/nginx.ts";

/** Why the epoll transport cannot speak TLS here (libssl missing...), or null. */
export const EPOLL_TLS_BLOCKER = epollBlocker(new URL("https://127.0.0.1/"));
if (EPOLL_TLS_BLOCKER !== null) console.log(`epoll over TLS skipped: ${EPOLL_TLS_BLOCKER}`);
/** The transports the TLS tests run on: both where epoll can speak TLS, else deno. */
export const TLS_TRANSPORTS = EPOLL_TLS_BLOCKER === null ? ["deno", "epoll"] as const : ["deno"] as const;
/** The three TLS clients: each transport verifying, and the deno transport with --insecure (node:tls). */
export const TLS_CLIENTS = [
  ...TLS_TRANSPORTS.map((transport) => ({ transport, insecure: false })),
  { transport: "deno", insecure: true }, // node:tls
] as const;

/** `attack ARGS --transport T -n N -c C --timeout 5s --json`; its first JSON line, or null. */
export async function attackJson(args: string[], transport: string, requests: number, connections: number) {
  const r = await runLoadlab([
    "attack",
    ...args,
    "--transport",
    transport,
    "-n",
    `${requests}`,
    "-c",
    `${connections}`,
    "--timeout",
    "5s",
    "--json",
    "--no-live",
  ]);
  return { ...r, json: r.stdout.trim() ? JSON.parse(r.stdout.split("\n")[0]) : null };
}

export interface TlsFixtures {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

async function openssl(dir: string, args: string[]): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`openssl ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/** Writes the fixtures into `dir`; `caName`: the CA's common name (a client picks by its issuer's name). */
export async function makeTlsFixtures(dir: string, caName = "t"): Promise<TlsFixtures> {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  await openssl(dir, [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    `/CN=${caName}`,
  ]);
  await Deno.writeTextFile(
    `${dir}/server.ext`,
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
  );
  await Deno.writeTextFile(`${dir}/client.ext`, "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n");
  for (const who of ["server", "client"]) {
    await openssl(dir, ["req", ...ec, "-keyout", `${who}.key`, "-out", `${who}.csr`, "-subj", `/CN=${who}`]);
    await openssl(dir, [
      "x509",
      "-req",
      "-in",
      `${who}.csr`,
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "2",
      "-extfile",
      `${who}.ext`,
      "-out",
      `${who}.pem`,
    ]);
  }
  return {
    dir,
    ca: `${dir}/ca.pem`,
    serverCert: `${dir}/server.pem`,
    serverKey: `${dir}/server.key`,
    clientCert: `${dir}/client.pem`,
    clientKey: `${dir}/client.key`,
  };
}

/**
 * Runs `fn` against a `Deno.serve` HTTPS target on 127.0.0.1 with the fixtures' server certificate
 * (`handler`: what it answers, "ok" by default); skipped with a printed reason without openssl.
 */
export async function withTlsTarget(
  fn: (port: number, f: TlsFixtures) => Promise<void>,
  handler: (req: Request) => Response = () => new Response("ok"),
): Promise<void> {
  if (!requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const f = await makeTlsFixtures(dir);
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      cert: await Deno.readTextFile(f.serverCert),
      key: await Deno.readTextFile(f.serverKey),
      onListen() {},
    }, handler);
    try {
      await fn(server.addr.port, f);
    } finally {
      await server.shutdown();
    }
  });
}

/**
 * Runs `fn` against a raw `Deno.listenTls` server on 127.0.0.1 with the fixtures' server certificate,
 * each connection handed to `serve`; `fn` gets the port and the serving of the connections so far, all
 * awaited after it. Skipped with a printed reason without openssl.
 */
export async function withTlsListener(
  serve: (conn: Deno.TlsConn) => Promise<void>,
  fn: (port: number, f: TlsFixtures, served: Promise<void>[]) => Promise<void>,
): Promise<void> {
  if (!requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const f = await makeTlsFixtures(dir);
    const listener = Deno.listenTls({
      hostname: "127.0.0.1",
      port: 0,
      cert: await Deno.readTextFile(f.serverCert),
      key: await Deno.readTextFile(f.serverKey),
    });
    const served: Promise<void>[] = [];
    const accepting = (async () => {
      for await (const conn of listener) served.push(serve(conn));
    })();
    try {
      await fn(listener.addr.port, f, served);
    } finally {
      listener.close();
      await accepting.catch(() => {});
      await Promise.all(served);
    }
  });
}

/** Runs `fn` against Debian's nginx speaking HTTP/2: h2c on `plain`, h2 by ALPN over TLS on `tls`. */
export async function withH2Nginx(
  fn: (plain: RunningNginx, tls: RunningNginx, f: TlsFixtures) => Promise<void>,
): Promise<void> {
  if (!requireProgram("nginx") || !requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const f = await makeTlsFixtures(dir);
    const plain = await startNginx("nginx", [], undefined, true);
    const tls = await startNginx("nginx", [], {
      directives: `ssl_certificate ${f.serverCert}; ssl_certificate_key ${f.serverKey};`,
    }, true);
    try {
      await fn(plain, tls, f);
    } finally {
      await plain.stop();
      await tls.stop();
    }
  });
}
