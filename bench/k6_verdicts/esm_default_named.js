// args: -u 2 -i 6
// A local module with a default export and named exports, imported both ways and as a namespace.
import { check } from "k6";
import client, { pick } from "./lib/helpers.js";
import * as helpers from "./lib/helpers.js";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";
const api = client(BASE);
const WORDS = ["k6", "load", "lab"];

export const options = {
  thresholds: { "http_reqs{name:search}": ["count==6"], checks: ["rate==1"] },
};

export default function () {
  const q = pick(WORDS, __ITER);
  const res = api.get(q);
  check(res, {
    "query echoed": (r) => r.json("args.q") === q,
    "namespace import": () => helpers.API === "/get" && helpers.default === client,
  });
}
