// args: -i 3
// CommonJS as older k6 scripts write it: require() of k6 modules, options and default on exports.
const http = require("k6/http");
const { check } = require("k6");

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

exports.options = {
  thresholds: { http_reqs: ["count==3"], checks: ["rate==1"] },
};

exports.default = function () {
  check(http.get(`${BASE}/json`), { "cjs ok": (r) => r.status === 200 });
};
