/**
 * The transport is chosen once per run: deno is Deno.connect; auto and epoll are epoll where it can
 * run (https: through OpenSSL), and fall back to deno with the reason kept where it cannot (not Linux,
 * no FFI, no libssl).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { chooseTransport, epollBlocker, uringBlocker } from "./choice.ts";
import { tlsOptionsSchema } from "../tls/options.ts";
import { epollUnavailableReason } from "./epoll/ffi.ts";

const epollHere = epollUnavailableReason();
console.log(
  epollHere === null
    ? "epoll is available here: the fallback-on-this-system case is skipped"
    : `epoll unavailable here (${epollHere}): the epoll cases are skipped`,
);

Deno.test("deno chooses the deno transport, with no fallback reason", () => {
  const chosen = chooseTransport(new URL("http://127.0.0.1:8080/"), "deno");
  assertEquals([chosen.kind, chosen.fallbackReason], ["deno", null]);
  chosen.close();
});

Deno.test("auto for a verified https: run is epoll + OpenSSL where it can run, else says why not", () => {
  const chosen = chooseTransport(new URL("https://127.0.0.1:8443/"), "auto", {
    tls: tlsOptionsSchema.parse({}),
  });
  assertEquals(chosen.kind, epollHere === null ? "epoll" : "deno");
  chosen.close();
});

Deno.test({
  name: "auto for an --insecure https: run is epoll + OpenSSL (the deno transport would need node:tls)",
  ignore: epollBlocker(new URL("https://127.0.0.1/")) !== null,
  fn() {
    const tls = tlsOptionsSchema.parse({ insecure: true });
    const chosen = chooseTransport(new URL("https://127.0.0.1:8443/"), "auto", { tls });
    assertEquals([chosen.kind, chosen.fallbackReason], ["epoll", null]);
    chosen.close();
  },
});

Deno.test({
  name: "epoll for an https: target is epoll with OpenSSL where libssl 3 loads",
  ignore: epollBlocker(new URL("https://127.0.0.1/")) !== null,
  fn() {
    for (const requested of ["epoll"] as const) {
      const chosen = chooseTransport(new URL("https://127.0.0.1:8443/"), requested, {
        tls: tlsOptionsSchema.parse({}),
      });
      assertEquals([chosen.kind, chosen.fallbackReason, chosen.tlsInfo()], ["epoll", null, null]);
      chosen.close();
      chosen.close(); // idempotent: the SSL_CTX freed once
    }
  },
});

Deno.test({
  name: "https: without libssl, epoll falls back to deno and records why",
  ignore: epollHere !== null,
  async fn() {
    const probe = `import { chooseTransport } from ${JSON.stringify(import.meta.resolve("./choice.ts"))};
for (const requested of ["epoll"]) {
  const chosen = chooseTransport(new URL("https://127.0.0.1:8443/"), requested);
  console.log(JSON.stringify([chosen.kind, chosen.fallbackReason]));
}`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", probe],
      stdout: "piped",
      stderr: "piped",
      env: { LOADLAB_LIBSSL: "libssl-missing-for-test.so.3" },
    }).output();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines.length, 1, new TextDecoder().decode(out.stderr));
    for (const [kind, reason] of lines) {
      assertEquals(kind, "deno");
      ok(/libssl-missing-for-test\.so\.3 not loadable/.test(reason), reason);
    }
  },
});

Deno.test({
  name: "auto and epoll for a plain http: target are epoll (names resolved once, here)",
  ignore: epollHere !== null,
  fn() {
    for (const requested of ["auto", "epoll"] as const) {
      const chosen = chooseTransport(new URL("http://localhost:8080/"), requested, { closedModel: true });
      assertEquals([chosen.kind, chosen.fallbackReason], ["epoll", null]);
      chosen.close();
      chosen.close(); // idempotent
    }
  },
});

Deno.test({
  name:
    "auto for a WebSocket message run is io_uring where it can serve it, else epoll with nothing to report",
  ignore: epollHere !== null,
  fn() {
    const url = new URL("http://127.0.0.1:8080/");
    const closed = chooseTransport(url, "auto", { closedModel: true, preferUring: true });
    const uring = uringBlocker(url, { closedModel: true });
    assertEquals([closed.kind, closed.fallbackReason], [uring === null ? "io_uring" : "epoll", null]);
    closed.close();
    // An open model (a storm at a rate) and plain auto stay on epoll.
    for (const options of [{ closedModel: false, preferUring: true }, { closedModel: true }]) {
      const chosen = chooseTransport(url, "auto", options);
      assertEquals([chosen.kind, chosen.fallbackReason], ["epoll", null]);
      chosen.close();
    }
  },
});

Deno.test({
  name: "where epoll cannot run, auto falls back to deno with the reason",
  ignore: epollHere === null,
  fn() {
    const chosen = chooseTransport(new URL("http://127.0.0.1:8080/"), "auto");
    assertEquals([chosen.kind, chosen.fallbackReason], ["deno", epollHere]);
  },
});

Deno.test("without FFI permission the reason says so", async () => {
  const probe = `import { epollUnavailableReason } from ${
    JSON.stringify(import.meta.resolve("./epoll/ffi.ts"))
  };
console.log(epollUnavailableReason());`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", "--allow-read", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { LOADLAB_RUN_ID: Deno.env.get("LOADLAB_RUN_ID") ?? "transport-choice-test" },
  }).spawn();
  const writer = out.stdin.getWriter();
  await writer.write(new TextEncoder().encode(probe));
  await writer.close();
  const { stdout, stderr } = await out.output();
  const text = new TextDecoder().decode(stdout).trim();
  const expected = Deno.build.os === "linux" ? /FFI not permitted/ : /not Linux/;
  ok(expected.test(text), text + new TextDecoder().decode(stderr));
});
