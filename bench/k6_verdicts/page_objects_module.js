// args: -u 2 -i 4
// Page objects: a class of a local module whose methods send requests and sleep, chained.
import { check } from "k6";
import { ShopPage } from "./lib/pages.js";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  thresholds: {
    "http_reqs{page:shop}": ["count==4"],
    "http_reqs{page:search}": ["count==4"],
    checks: ["rate==1"],
  },
};

export default function () {
  const page = new ShopPage(BASE);
  const res = page.open().think(0.05).search(`item${__ITER}`);
  check(res, { "search echoed": (r) => r.json("args.q") === `item${__ITER}` });
}
