import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { selects } from "./selector.ts";

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
