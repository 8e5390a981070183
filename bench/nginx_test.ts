import assert from "node:assert/strict";
import { requireProgram } from "../tests/helpers.ts";
import { startNginx } from "./nginx.ts";

// Prints why at load when nginx is missing (and fails on CI, where it must be installed).
const hasNginx = requireProgram("nginx");

Deno.test({
  name: "startNginx serves 200 ok from its own prefix and stops cleanly",
  ignore: !hasNginx,
  fn: async () => {
    const nginx = await startNginx("nginx", []);
    const port = Number(new URL(nginx.url).port);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(nginx.url);
        assert.equal(res.status, 200);
        assert.equal(await res.text(), "ok");
      }
    } finally {
      await nginx.stop();
    }
    await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port }), Deno.errors.ConnectionRefused);
  },
});
