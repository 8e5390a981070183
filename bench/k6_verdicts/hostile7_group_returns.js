// args: -i 2
// group() hands back its callback's value; a request's tags merge with the group's and the test's tags.
import http from "k6/http";
import { check, group } from "k6";

export const options = {
  tags: { app: "shop" },
  thresholds: {
    "http_reqs{group:::login,app:shop,step:auth}": ["count==2"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = group(
    "login",
    () => http.post("http://127.0.0.1:18481/post", "u=1", { tags: { step: "auth" } }),
  );
  check(res, { "returned": (r) => r.status === 200 && r.json("data") === "u=1" });
}
