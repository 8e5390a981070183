/**
 * The epoll transport's OpenSSL client against real `Deno.serve` TLS targets: handshakes that pass and
 * fail verification (expired, unknown CA, hostname) are named by reason, what the handshake negotiated
 * is read, and every `SSL` and socket is freed when the loop closes. Skipped where libssl 3 or epoll
 * cannot be loaded. Loopback only; no speed asserted.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { EpollSys } from "../transport/epoll/ffi.ts";
import { EpollLoop } from "../transport/epoll/transport.ts";
import { resolveOnce } from "../transport/host_resolver.ts";
import { OpenSslClient } from "./openssl_client.ts";
import { verifyResultMessage } from "./openssl_ffi.ts";
import { epollBlocker } from "../transport/choice.ts";
import { tlsOptionsSchema } from "./options.ts";
import { tlsFailureMessage } from "./material.ts";
import { selfSignedPair } from "../../../targets/tls_cert.ts";
import { classifyError } from "../exchange_errors.ts";

const BLOCKER = epollBlocker(new URL("https://127.0.0.1/"));
if (BLOCKER !== null) console.log(`skipped: ${BLOCKER}`);

/**
 * A self-signed certificate for localhost that expired yesterday (served as it is; trusted as its own CA).
 */
async function expiredPair(): Promise<{ certPem: string; keyPem: string }> {
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  const alg = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = await crypto.subtle.generateKey(alg, true, ["sign", "verify"]) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: "CN=localhost",
    notBefore: new Date(Date.now() - 3 * 86_400_000),
    notAfter: new Date(Date.now() - 86_400_000),
    keys,
    signingAlgorithm: alg,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }])],
  });
  const pkcs8 = await crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return {
    certPem: cert.toString("pem") + "\n",
    keyPem: x509.PemConverter.encode(pkcs8, "PRIVATE KEY") + "\n",
  };
}

function serve(cert: string, key: string) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, cert, key, onListen() {} }, () => new Response("ok"));
}

/** Connects `count` times through a fresh loop and client; returns each outcome and the client's counts. */
async function dial(port: number, serverName: string, tls: object, count: number) {
  const sys = new EpollSys();
  const client = new OpenSslClient(serverName, tlsOptionsSchema.parse(tls), () => sys.lastErrno());
  const loop = new EpollLoop(resolveOnce("127.0.0.1", port), sys, { blockMs: 0, tls: client });
  const signal = new AbortController().signal;
  const outcomes = await Promise.allSettled(Array.from({ length: count }, () => loop.connect(signal)));
  const liveBeforeClose = client.liveConns;
  const info = loop.tlsInfo;
  loop.close();
  return { outcomes, liveBeforeClose, liveAfterClose: client.liveConns, open: loop.openSockets, info };
}

const failures = (outcomes: PromiseSettledResult<unknown>[]) =>
  outcomes.map((o) =>
    o.status === "rejected" ? tlsFailureMessage(String((o.reason as Error).message)) : "ok"
  );

Deno.test({
  name: "openssl: verified handshakes succeed, negotiate TLS 1.3 and http/1.1, and are freed on close",
  ignore: BLOCKER !== null,
  async fn() {
    const pair = await selfSignedPair();
    const caFile = await Deno.makeTempFile({ suffix: ".pem" });
    await Deno.writeTextFile(caFile, pair.caPem);
    const server = serve(pair.certPem, pair.keyPem);
    try {
      const r = await dial(server.addr.port, "localhost", { caFile }, 4);
      assertEquals(failures(r.outcomes), ["ok", "ok", "ok", "ok"]);
      assertEquals(r.liveBeforeClose, 4);
      assertEquals([r.liveAfterClose, r.open], [0, 0], "every SSL and socket freed by close");
      assertEquals(r.info, { alpn: "http/1.1", version: "TLSv1.3", cipher: r.info?.cipher ?? null });
      ok(r.info?.cipher?.startsWith("TLS_"), String(r.info?.cipher));
    } finally {
      await server.shutdown();
      await Deno.remove(caFile);
    }
  },
});

Deno.test({
  name: "openssl: verification failures are named by reason, and each failed SSL is freed at once",
  ignore: BLOCKER !== null,
  async fn() {
    const pair = await selfSignedPair();
    const expired = await expiredPair();
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
    await Deno.writeTextFile(`${dir}/expired.pem`, expired.certPem);
    const good = serve(pair.certPem, pair.keyPem);
    const old = serve(expired.certPem, expired.keyPem);
    try {
      const cases: Array<[number, string, object, string]> = [
        [good.addr.port, "localhost", {}, "tls unknown-ca:"],
        [good.addr.port, "example.com", { caFile: `${dir}/ca.pem` }, `${NAMES}example.com (`],
        [old.addr.port, "localhost", { caFile: `${dir}/expired.pem` }, "tls expired:"],
      ];
      for (const [port, name, tls, reason] of cases) {
        const r = await dial(port, name, tls, 2);
        for (const message of failures(r.outcomes)) ok(message.startsWith(reason), `${name}: ${message}`);
        assertEquals([r.liveBeforeClose, r.liveAfterClose, r.open], [0, 0, 0]);
      }
      const insecure = await dial(old.addr.port, "example.com", { insecure: true }, 2);
      assertEquals(failures(insecure.outcomes), ["ok", "ok"], "--insecure skips every check");
      assertEquals(insecure.liveAfterClose, 0);
    } finally {
      await good.shutdown();
      await old.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const NAMES = "tls hostname: the server's certificate names localhost, 127.0.0.1, ::1, not ";

Deno.test("openssl: every verify result code's message names the reason results count it under", () => {
  assertEquals(tlsFailureMessage(verifyResultMessage(10)).split(":")[0], "tls expired");
  assertEquals(tlsFailureMessage(verifyResultMessage(9)).split(":")[0], "tls expired");
  for (const code of [2, 18, 19, 20, 21]) {
    assertEquals(tlsFailureMessage(verifyResultMessage(code)).split(":")[0], "tls unknown-ca");
  }
  assertEquals(tlsFailureMessage(verifyResultMessage(62)).split(":")[0], "tls hostname");
  assertEquals(tlsFailureMessage(verifyResultMessage(64)).split(":")[0], "tls hostname");
  // rustls's and node:tls's words list the certificate's names, and so does the counted message.
  const names = `${NAMES}a.test (use`;
  for (
    const message of [
      'invalid peer certificate: certificate not valid for name "a.test"; certificate is only valid for ' +
      'DnsName("localhost"), IpAddress(127.0.0.1) or IpAddress(0::1)',
      "Hostname/IP does not match certificate's altnames: Host: a.test. is not in the cert's altnames: " +
      "DNS:localhost, IP Address:127.0.0.1, IP Address:::1",
    ]
  ) assertEquals(tlsFailureMessage(message).slice(0, names.length), names);
});

Deno.test({
  name: "openssl: a handshake the server never answers is aborted as a connect timeout, its SSL freed",
  ignore: BLOCKER !== null,
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of listener) held.push(conn); // accepted, never answered
    })();
    const sys = new EpollSys();
    const client = new OpenSslClient("localhost", tlsOptionsSchema.parse({}), () => sys.lastErrno());
    const loop = new EpollLoop(resolveOnce("127.0.0.1", listener.addr.port), sys, {
      blockMs: 0,
      tls: client,
    });
    try {
      const aborter = new AbortController();
      const timer = setTimeout(() => aborter.abort(), 200);
      const outcome = await loop.connect(aborter.signal).then(() => null, (err) => err as Error);
      clearTimeout(timer);
      ok(outcome instanceof Deno.errors.Interrupted, String(outcome));
      assertEquals(outcome.message, "connected, but the encrypted session was still being set up");
      assertEquals(classifyError(outcome, "connect"), "connect", "a timeout, not a tls failure");
      assertEquals([client.liveConns, loop.openSockets], [0, 0]);
    } finally {
      loop.close();
      listener.close();
      await accepting.catch(() => {});
      for (const conn of held) conn.close();
    }
  },
});
