// args: -u 1 -i 2
// PATCH and PUT with an object body: k6 sends it form-encoded with its content type.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const patched = http.patch("http://127.0.0.1:18481/patch", { name: "a b", qty: 2 });
  const put = http.request("PUT", "http://127.0.0.1:18481/put", { flag: "on" });
  check(patched, {
    "form content type": (r) =>
      String(r.json("headers.Content-Type")).startsWith("application/x-www-form-urlencoded"),
    "fields decoded": (r) => r.json("form.name") === "a b" && r.json("form.qty") === "2",
  });
  check(put, { "put form": (r) => r.json("form.flag") === "on" });
}
