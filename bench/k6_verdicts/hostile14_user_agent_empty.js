// args: -i 2
// options.userAgent "" (no k6 agent), and a request's own User-Agent header over it.
import http from "k6/http";
import { check } from "k6";

export const options = { userAgent: "" };

export default function () {
  const plain = http.get("http://127.0.0.1:18481/user-agent");
  check(plain, {
    "no k6 agent": (r) => !String(r.json("user-agent")).startsWith("k6/"),
    "agent absent": (r) => r.json("user-agent") === null,
  });
  const own = http.get("http://127.0.0.1:18481/user-agent", { headers: { "User-Agent": "probe/2" } });
  check(own, { "own agent sent": (r) => r.json("user-agent") === "probe/2" });
}
