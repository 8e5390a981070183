/**
 * @module
 * TLS for the built-in targets: PEM files, or `self-signed`: a throwaway CA and a server certificate
 * (ECDSA P-256, a week, loopback names), the CA's path handed back for `--cacert`.
 */
import type { ServeTls } from "./spec.ts";

/** PEM files a TLS target serves with, and the CA a client verifies it with (self-signed only). */
export interface ServeTlsFiles {
  certFile: string;
  keyFile: string;
  caFile?: string;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** The files for `tls`; a self-signed set is made in `dir` as `<prefix>ca.pem`, `cert.pem`, `key.pem`. */
export async function serveTlsFiles(tls: ServeTls, dir: string, prefix = "tls-"): Promise<ServeTlsFiles> {
  if (tls !== "self-signed") return { certFile: tls.cert, keyFile: tls.key };
  const made = await selfSignedPair();
  await Deno.mkdir(dir, { recursive: true });
  const at = `${dir}/${prefix}`;
  const files = { certFile: `${at}cert.pem`, keyFile: `${at}key.pem`, caFile: `${at}ca.pem` };
  await Deno.writeTextFile(files.caFile, made.caPem);
  await Deno.writeTextFile(files.certFile, made.certPem + made.caPem);
  await Deno.writeTextFile(files.keyFile, made.keyPem, { mode: 0o600 });
  return files;
}

/** A throwaway CA and a server certificate, as PEM; `certNotBeforeMs` moves the certificate's start. */
export async function selfSignedPair(certNotBeforeMs?: number) {
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  const alg = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const usage: KeyUsage[] = ["sign", "verify"];
  const caKeys = await crypto.subtle.generateKey(alg, true, usage) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + WEEK_MS);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: "CN=loadlab throwaway CA",
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const keys = await crypto.subtle.generateKey(alg, true, usage) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: "CN=localhost",
    issuer: ca.subject,
    notBefore: certNotBeforeMs === undefined ? notBefore : new Date(certNotBeforeMs),
    notAfter,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.SubjectAlternativeNameExtension([
        { type: "dns", value: "localhost" },
        { type: "ip", value: "127.0.0.1" },
        { type: "ip", value: "::1" },
      ]),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
    ],
  });
  const pkcs8 = await crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return {
    caPem: ca.toString("pem") + "\n",
    certPem: cert.toString("pem") + "\n",
    keyPem: x509.PemConverter.encode(pkcs8, "PRIVATE KEY") + "\n",
  };
}

/** A positive 64-bit serial in hex (RFC 5280: unique per issuer; each CA here signs one). */
function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  bytes[0] &= 0x7f;
  bytes[0] |= 0x01;
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
