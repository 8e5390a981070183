/**
 * The transport is chosen once per run: auto and deno are Deno.connect, epoll is epoll where it can
 * run, and an epoll that cannot serve the target falls back to deno with the reason kept.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { chooseTransport } from "./transport_choice.ts";
import { epollUnavailableReason } from "./epoll_ffi.ts";

Deno.test("auto and deno choose the deno transport, with no fallback reason", () => {
  for (const requested of ["auto", "deno"] as const) {
    const chosen = chooseTransport(new URL("http://127.0.0.1:8080/"), requested);
    assertEquals([chosen.kind, chosen.fallbackReason], ["deno", null]);
    chosen.close();
  }
});

Deno.test("epoll for an https: target falls back to deno and says why", () => {
  const chosen = chooseTransport(new URL("https://127.0.0.1:8443/"), "epoll");
  assertEquals(chosen.kind, "deno");
  ok(/https:/.test(chosen.fallbackReason ?? ""), String(chosen.fallbackReason));
});

Deno.test({
  name: "epoll for a plain http: target is epoll (names resolved once, here)",
  ignore: epollUnavailableReason() !== null,
  fn() {
    const chosen = chooseTransport(new URL("http://localhost:8080/"), "epoll");
    assertEquals([chosen.kind, chosen.fallbackReason], ["epoll", null]);
    chosen.close();
    chosen.close(); // idempotent
  },
});
