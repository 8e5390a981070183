// args: -u 1 -i 2
// A TypeScript test importing a local .ts helper with an enum, generics, `as const` and `satisfies`.
import http from "k6/http";
import { check } from "k6";
import type { Options } from "k6/options";
import { Env, paths, postJson } from "./lib/h10/client.ts";

type Order = { id: number; items: string[] };

export const options = {
  thresholds: { checks: ["rate==1"], http_reqs: ["count==4"] },
} satisfies Options;

export default function (): void {
  const order: Order = { id: __ITER, items: ["a", "b"] };
  const echo = postJson<Order>(order);
  check(echo, { "typed echo": (e) => e.json?.items.length === 2 && e.json.id === __ITER });
  const r = http.get(`${Env.Target}${paths.get === "/get" ? "/" : paths.get}`);
  check(r, { "enum url": (res) => res.status === 200 });
}
