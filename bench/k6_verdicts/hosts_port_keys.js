// args:
// options.hosts keyed by host:port, as a team pins one service's port and a CDN's wildcard to test hosts.
import http from "k6/http";
import { check } from "k6";

export const options = {
  iterations: 3,
  hosts: { "Stock.shop.internal:8080": "127.0.0.1:18482", "*.cdn.internal:80": "127.0.0.1:18481" },
  thresholds: { http_req_failed: ["rate==0"], "http_reqs{name:stock}": ["count==3"] },
};

export default function () {
  const stock = http.get("http://stock.shop.internal:8080/json", { tags: { name: "stock" } });
  check(stock, { "stock answered": (r) => r.status === 200 });
  check(http.get("http://img.cdn.internal/get"), { "cdn answered": (r) => r.status === 200 });
}
