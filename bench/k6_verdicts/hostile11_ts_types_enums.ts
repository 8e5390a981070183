// args: -u 1 -i 3
// A TypeScript test: an enum of routes, interfaces, a generic helper, non-null assertions and casts.
import http, { type RefinedResponse, type ResponseType } from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";
import type { Options } from "k6/options";

enum Route {
  Get = "/get",
  Post = "/post",
}

const enum Level {
  Low = 1,
  High = 3,
}

interface Echo<T> {
  args: Record<string, string>;
  json: T | null;
}

type Payload = { level: Level; tags: readonly string[] };

const BASE: string = __ENV.BASE_URL ?? "http://127.0.0.1:18481";
const sent = new Counter("sent_payloads");

export const options: Options = {
  thresholds: { checks: ["rate==1"], "sent_payloads{level:3}": ["count==3"] },
};

function echoOf<T>(res: RefinedResponse<ResponseType | undefined>): Echo<T> {
  return res.json() as unknown as Echo<T>;
}

export default function (): void {
  const payload: Payload = { level: Level.High, tags: ["a", "b"] as const };
  const res = http.post(`${BASE}${Route.Post}`, JSON.stringify(payload), {
    headers: { "Content-Type": "application/json" },
  });
  const echo = echoOf<Payload>(res);
  sent.add(1, { level: String(echo.json!.level) });
  const got = http.get(
    `${BASE}${Route.Get}?route=${Route[Route.Get as unknown as keyof typeof Route] ?? "x"}`,
  );
  check(got, {
    "post echoed": () => echo.json!.tags.length === 2,
    "enum route": (r) => (r.json("url") as string).includes(Route.Get),
  });
}
