/**
 * Unit tests of the host resolver: a name through the system resolver (localhost from /etc/hosts), an
 * unknown name refused. Skipped (ignored) where epoll through FFI, whose libc binding it calls, is not
 * available.
 */
import { ok, throws } from "node:assert/strict";
import { epollUnavailableReason } from "./epoll/ffi.ts";
import { resolveHost } from "./host_resolver.ts";

const ignore = epollUnavailableReason() !== null;

Deno.test({
  name: "resolveHost: the system resolver (localhost from /etc/hosts)",
  ignore,
  fn() {
    const found = resolveHost("localhost");
    ok(found.includes("127.0.0.1") || found.includes("0:0:0:0:0:0:0:1"), JSON.stringify(found));
    throws(() => resolveHost("no-such-host.invalid"));
  },
});
