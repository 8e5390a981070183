// args: -u 1 -i 2
// A form body of an object with numbers, booleans and a nested object, as teams post by mistake.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const r = http.post("http://127.0.0.1:18481/post", { qty: 2, gift: true, note: "a b&c" });
  check(r, {
    "numbers as text": (res) => res.json("form.qty") === "2",
    "booleans as text": (res) => res.json("form.gift") === "true",
    "escaped": (res) => res.json("form.note") === "a b&c",
    "urlencoded": (res) => res.json("headers.Content-Type") === "application/x-www-form-urlencoded",
  });
}
