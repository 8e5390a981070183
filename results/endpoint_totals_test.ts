import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { mergeEndpoints } from "./endpoint_totals.ts";
import type { EndpointResult } from "./mod.ts";

/** An endpoint `name` with `tags` and `requests` answered 200, in one interval. */
function endpoint(name: string, tags: Record<string, string> | undefined, requests: number): EndpointResult {
  return {
    name,
    ...(tags ? { tags } : {}),
    requests,
    errors: {},
    statusCodes: { "200": requests },
    bytesRead: requests * 10,
    bytesWritten: requests,
    latencyMs: null,
    histogramEncoded: null,
    intervals: { requests: [requests], errors: [0] },
  } as unknown as EndpointResult;
}

Deno.test("endpoints of one name with other tags (k6's scenarios) stay apart; the same name and tags add up", () => {
  const merged = mergeEndpoints(
    [
      [endpoint("GET /json", { scenario: "api" }, 5), endpoint("GET /", undefined, 1)],
      [endpoint("GET /json", { scenario: "web" }, 2), endpoint("GET /", undefined, 3)],
    ],
    [0, 0],
    1,
  )!;
  assertEquals(merged.map((e) => [e.name, e.tags, e.requests, e.bytesWritten]), [
    ["GET /json", { scenario: "api" }, 5, 5],
    ["GET /", undefined, 4, 4],
    ["GET /json", { scenario: "web" }, 2, 2],
  ]);
});
