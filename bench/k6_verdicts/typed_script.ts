// args: -e BASE_URL=http://127.0.0.1:18482
import http from "k6/http";
import { check, sleep } from "k6";
import type { Options } from "k6/options";

interface Echo {
  url: string;
  headers: Record<string, string>;
}

enum Route {
  Get = "/get",
  Json = "/json",
}

export const options: Options = {
  vus: 2,
  iterations: 6,
  thresholds: {
    http_req_failed: ["rate<0.01"],
    "checks{route:get}": ["rate==1"],
  },
};

const BASE: string = __ENV.BASE_URL ?? "http://127.0.0.1:18481";

function get<T>(route: Route): T | null {
  const res = http.get(`${BASE}${route}`, { tags: { route: route.slice(1) } });
  check(res, { [`${route} is 200`]: (r) => r.status === 200 }, { route: route.slice(1) });
  return res.status === 200 ? (res.json() as unknown as T) : null;
}

export default function (): void {
  const echo = get<Echo>(Route.Get);
  check(echo, { "echo names its url": (e) => e !== null && e.url.includes("/get") });
  get<Record<string, unknown>>(Route.Json);
  sleep(0.05 as number);
}
