/**
 * TLS versions and cipher suites by standard name: the options refuse an unknown suite and a minimum
 * newer than the maximum, OpenSSL's client refuses a list it can offer none of, and the `deno`
 * transport's TLS refuses them all (it cannot set them) rather than ignoring them.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { openSslCipherLists } from "./cipher_names.ts";
import { tlsOptionsSchema } from "./options.ts";
import { OpenSslClient } from "./openssl_client.ts";
import { tlsTransport } from "./deno_tls.ts";
import { epollBlocker } from "../transport/choice.ts";

const BLOCKER = epollBlocker(new URL("https://127.0.0.1/"));

Deno.test("cipher suites by standard name: OpenSSL's two lists", () => {
  assertEquals(
    openSslCipherLists([
      "TLS_RSA_WITH_AES_128_GCM_SHA256",
      "TLS_AES_256_GCM_SHA384",
      "TLS_RSA_WITH_RC4_128_SHA",
    ]),
    { tls12: "AES128-GCM-SHA256:RC4-SHA", tls13: "TLS_AES_256_GCM_SHA384" },
  );
  assertEquals(openSslCipherLists(["TLS_CHACHA20_POLY1305_SHA256"]), {
    tls12: null,
    tls13: "TLS_CHACHA20_POLY1305_SHA256",
  });
});

Deno.test("tls options: an unknown suite, an unknown version and min over max are refused at their paths", () => {
  const paths = (tls: object) => {
    const r = tlsOptionsSchema.safeParse(tls);
    return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
  };
  assertEquals(paths({ ciphers: ["AES128-SHA"] }), ["ciphers.0"]);
  assertEquals(paths({ minVersion: "ssl3" }), ["minVersion"]);
  assertEquals(paths({ minVersion: "tls1.3", maxVersion: "tls1.2" }), ["maxVersion"]);
  assertEquals(
    paths({ minVersion: "tls1.0", maxVersion: "tls1.3", ciphers: ["TLS_AES_128_GCM_SHA256"] }),
    [],
  );
});

Deno.test({
  name: "openssl: a suite list it can offer none of is refused when the client is made",
  ignore: BLOCKER !== null,
  fn() {
    const tls = tlsOptionsSchema.parse({ ciphers: ["TLS_RSA_WITH_RC4_128_SHA"] });
    throws(
      () => new OpenSslClient("localhost", tls, () => 0),
      /OpenSSL offers none of TLS_RSA_WITH_RC4_128_SHA/,
    );
  },
});

Deno.test("deno transport: TLS versions or suites are refused, not ignored", () => {
  const tls = tlsOptionsSchema.parse({ maxVersion: "tls1.2" });
  throws(() => tlsTransport("localhost", tls), /tls\.maxVersion: Deno's TLS cannot set/);
});
