// args: -u 1 -i 3 --compatibility-mode=base
// `--compatibility-mode=base` with a script in ES2015+ syntax: classes, destructuring, spread, templates.
import http from "k6/http";
import { check, group } from "k6";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{group:::api}": ["count==3"] } };

class Client {
  constructor(base) {
    this.base = base;
  }
  get(path, { tag = "none", ...rest } = {}) {
    return http.get(`${this.base}${path}`, { tags: { tag }, ...rest });
  }
}

const api = new Client("http://127.0.0.1:18481");

export default function () {
  group("api", () => {
    const { status, body } = api.get("/get?n=1", { tag: "one", headers: { "X-Mode": "base" } });
    const [first = 0, ...others] = [status, body.length];
    check({ first, others }, {
      "status via destructuring": (o) => o.first === 200,
      "body length kept": (o) => o.others[0] > 0,
    });
  });
}
