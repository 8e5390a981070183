import assert from "node:assert/strict";
import { basicAuth, parseMetricsOutput } from "./metrics_output.ts";

Deno.test("metrics output: a URL's user and password become Basic credentials, UTF-8 past Latin-1", () => {
  const out = parseMetricsOutput("otlp=http://r%C3%BCdiger:p%E2%82%AC@127.0.0.1:4318");
  if (typeof out === "string") throw new Error(out);
  assert.equal(out.url, "http://127.0.0.1:4318/v1/metrics");
  assert.equal(basicAuth("rüdiger", "p€"), `Basic ${btoa("r\xc3\xbcdiger:p\xe2\x82\xac")}`);
  assert.equal(out.headers.authorization, basicAuth("rüdiger", "p€"));
});
