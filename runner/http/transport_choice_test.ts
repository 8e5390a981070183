/**
 * The transport is chosen once per run: deno is Deno.connect; auto and epoll are epoll where it can
 * run, and fall back to deno with the reason kept where it cannot (https:, not Linux, no FFI).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { chooseTransport } from "./transport_choice.ts";
import { epollUnavailableReason } from "./epoll_ffi.ts";

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

Deno.test("auto and epoll for an https: target fall back to deno and say why", () => {
  for (const requested of ["auto", "epoll"] as const) {
    const chosen = chooseTransport(new URL("https://127.0.0.1:8443/"), requested);
    assertEquals(chosen.kind, "deno");
    ok(/https:/.test(chosen.fallbackReason ?? ""), String(chosen.fallbackReason));
  }
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
  name: "where epoll cannot run, auto falls back to deno with the reason",
  ignore: epollHere === null,
  fn() {
    const chosen = chooseTransport(new URL("http://127.0.0.1:8080/"), "auto");
    assertEquals([chosen.kind, chosen.fallbackReason], ["deno", epollHere]);
  },
});

Deno.test("without FFI permission the reason says so", async () => {
  const probe = `import { epollUnavailableReason } from ${
    JSON.stringify(import.meta.resolve("./epoll_ffi.ts"))
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
