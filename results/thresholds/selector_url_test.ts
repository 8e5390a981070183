import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { selects, targetOriginsOf } from "./selector.ts";

Deno.test("k6's {name:URL} picks the requests to that URL left unnamed, as k6 names them by their URL", () => {
  const picks = (value: string, name: string) => selects({ name: value }, { name });
  // The script's first origin goes to the run's target and is named by its path.
  assertEquals(picks("http://httpbin.org/post", "POST /post"), true);
  assertEquals(picks("http://httpbin.org/get?a=1", "GET /get?a=1"), true);
  assertEquals(picks("http://httpbin.org", "GET /"), true);
  // Another origin is named by its URL.
  assertEquals(picks("https://other.test/a", "GET https://other.test/a"), true);
  assertEquals(picks("http://httpbin.org/post", "POST /posts"), false);
  // A name of the script's own is matched as written only.
  assertEquals(picks("http://httpbin.org/post", "login"), false);
  assertEquals(picks("/post", "POST /post"), false);
});

Deno.test("k6's {name:URL} picks a path-named endpoint only when the URL's origin goes to the run's target", () => {
  const targets = new Set(["http://127.0.0.1:18481", "http://app.test"]);
  const picks = (value: string, name: string) => selects({ name: value }, { name }, targets);
  assertEquals(picks("http://127.0.0.1:18481/json", "GET /json"), true);
  // The script's origin sent to the target (--target app=URL) is the target's too.
  assertEquals(picks("http://app.test/json", "GET /json"), true);
  // Another origin's URL picks its own endpoint, never the target's of the same path.
  assertEquals(picks("http://127.0.0.1:18482/json", "GET /json"), false);
  assertEquals(picks("http://127.0.0.1:18482/json", "GET http://127.0.0.1:18482/json"), true);
});

Deno.test("a run's target origins: its URL's, and each origin the script's routes send there", () => {
  const run = (config: Record<string, unknown>) => ({ url: "http://127.0.0.1:9000/", config });
  assertEquals([...targetOriginsOf(run({}))], ["http://127.0.0.1:9000"]);
  assertEquals(
    [...targetOriginsOf(run({
      script: {
        path: "x.js",
        routes: { "http://app.test": "http://127.0.0.1:9000", "https://b.test": "http://127.0.0.1:1" },
      },
    }))],
    ["http://127.0.0.1:9000", "http://app.test"],
  );
});
