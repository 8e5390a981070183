// args: -i 2
// CommonJS with one module.exports object holding options and the default function.
const http = require("k6/http");

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

module.exports = {
  options: { thresholds: { http_reqs: ["count==2"] } },
  default: function () {
    http.get(`${BASE}/json`);
  },
};
