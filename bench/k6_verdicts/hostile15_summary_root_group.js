// args: -i 2
// handleSummary's root_group: its groups' names and paths, nested, and each check's passes and fails.
import http from "k6/http";
import { check, group } from "k6";

export default function () {
  check(1, { "top": () => true });
  group("shop", () => {
    check(http.get("http://127.0.0.1:18481/get"), { "listed": (r) => r.status === 200 });
    group("cart", () => {
      check(null, { "empty": () => __ITER === 0 });
    });
  });
}

export function handleSummary(data) {
  const out = [];
  const walk = (g) => {
    out.push(`@ group "${g.name}" path "${g.path}" id ${typeof g.id}`);
    for (const c of g.checks) out.push(`@ check ${c.name} ${c.path} ${c.passes}/${c.fails}`);
    for (const sub of g.groups) walk(sub);
  };
  walk(data.root_group);
  return { stdout: out.join("\n") + "\n" };
}
