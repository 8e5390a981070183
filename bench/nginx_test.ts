import assert from "node:assert/strict";
import { requireProgram } from "../tests/helpers.ts";
import { parseStubStatus, startNginx } from "./nginx.ts";

// Prints why at load when nginx is missing (and fails on CI, where it must be installed).
const hasNginx = requireProgram("nginx");

Deno.test({
  name: "startNginx serves 200 ok from its own prefix, counts what it served, and stops cleanly",
  ignore: !hasNginx,
  fn: async () => {
    const nginx = await startNginx("nginx", []);
    const port = Number(new URL(nginx.url).port);
    try {
      const before = await nginx.requestsServed();
      assert.notEqual(before, null);
      for (let i = 0; i < 3; i++) {
        const res = await fetch(nginx.url);
        assert.equal(res.status, 200);
        assert.equal(await res.text(), "ok");
      }
      // The three requests and the second reading itself: the count the steady rate is made of.
      assert.equal(await nginx.requestsServed(), before! + 4);
    } finally {
      await nginx.stop();
    }
    await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port }), Deno.errors.ConnectionRefused);
  },
});

Deno.test("parseStubStatus: the requests figure of nginx's stub_status page, or null for anything else", () => {
  const page =
    "Active connections: 51 \nserver accepts handled requests\n 12 12 1234567 \nReading: 0 Writing: 1 Waiting: 50 \n";
  assert.equal(parseStubStatus(page), 1234567);
  assert.equal(parseStubStatus("<html>404 Not Found</html>"), null);
});
