// args: -u 1 -i 2
// A page object reading rows with get() and finding the selected one's position with index().
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const doc = http.get("http://127.0.0.1:18481/html").html();
  const rows = doc.find("#links li");
  const names = rows.get().map((el) => el.textContent());
  check(names, { "every row": (n) => n.join() === "One,Two,Three" });
  check(rows, {
    "selected row's position": (r) => r.filter(".special").index() === 1,
    "not among a selector's": (r) => r.index("li.special") === -1,
  });
  const next = rows.eq(rows.filter(".special").index() + 1).find("a").attr("href");
  check(http.get(`http://127.0.0.1:18481${next}`), { "next page": (r) => r.json("args.page") === "3" });
}
