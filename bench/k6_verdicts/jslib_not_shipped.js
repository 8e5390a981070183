// args: -i 1
// deno-lint-ignore-file no-import-prefix
// A jslib module loadlab does not ship (k6chaijs): refused before the load, naming how to vendor it.
import http from "k6/http";
import { describe, expect } from "https://jslib.k6.io/k6chaijs/4.3.4.3/index.js";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default function () {
  describe("get answers", () => {
    expect(http.get(`${BASE}/get`).status, "status").to.equal(200);
  });
}
