// A request signed with a library: an HMAC-SHA256 of the method, path and time (node:crypto; any
// npm: package imports the same way). Runnable as is: loadlab run examples/scripts/signed.ts
import { createHmac } from "node:crypto";
import type { Session } from "../../runner/script/session.ts";

export const options = {
  targets: { app: { kind: "builtin" } },
  loads: { once: { model: "count", requests: 200, connections: 4 } },
};

/** Once before the load: a key for every session (setup's return value is `s.setup`). */
export function setup(): { keyId: string; secret: string } {
  return { keyId: "bench", secret: Deno.env.get("SIGNING_SECRET") ?? "not-a-secret" };
}

export default async (s: Session<{ keyId: string; secret: string }>) => {
  const path = `/json?order=${s.vu}-${s.iteration}`;
  const time = String(Date.now());
  const signature = createHmac("sha256", s.setup.secret).update(`GET\n${path}\n${time}`).digest("hex");
  const r = await s.get(path, {
    headers: { "x-key-id": s.setup.keyId, "x-time": time, "x-signature": signature },
    name: "signed order",
    timeoutMs: 2_000,
  });
  s.check(r.status === 200, "accepted");
};
