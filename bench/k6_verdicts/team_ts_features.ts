// args: -i 3
// TypeScript run natively, as k6 v1 runs it: satisfies, as const, a class with parameter properties,
// a generic arrow, a non-null assertion.
import http, { type RefinedResponse, type ResponseType } from "k6/http";
import { check } from "k6";
import type { Options } from "k6/options";

const BASE = __ENV.BASE_URL ?? "http://127.0.0.1:18481";
const ROUTES = ["/get", "/json"] as const;
type Route = (typeof ROUTES)[number];

class Client {
  constructor(private readonly base: string, public calls = 0) {}
  get(route: Route): RefinedResponse<ResponseType> {
    this.calls++;
    return http.get(`${this.base}${route}`, { tags: { route } });
  }
}

const first = <T>(xs: readonly T[]): T => xs[0]!;

export const options = {
  thresholds: { checks: ["rate==1"], "http_reqs{route:/get}": ["count==3"] },
} satisfies Options;

const client = new Client(BASE);

export default function (): void {
  const res = client.get(first(ROUTES));
  check(res, { "get 200": (r) => r.status === 200, "counted": () => client.calls > 0 });
  client.get(ROUTES[1]);
}
