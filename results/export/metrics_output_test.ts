import assert from "node:assert/strict";
import { basicAuth, parseMetricsOutput } from "./metrics_output.ts";

Deno.test("metrics output: a URL's user and password become Basic credentials, UTF-8 past Latin-1", () => {
  const out = parseMetricsOutput("otlp=http://r%C3%BCdiger:p%E2%82%AC@127.0.0.1:4318");
  if (typeof out === "string") throw new Error(out);
  assert.equal(out.url, "http://127.0.0.1:4318/v1/metrics");
  assert.equal(basicAuth("rüdiger", "p€"), `Basic ${btoa("r\xc3\xbcdiger:p\xe2\x82\xac")}`);
  assert.equal(out.headers.authorization, basicAuth("rüdiger", "p€"));
});

Deno.test("metrics output: a value that is no URL, or no http(s) one, is refused with an example", () => {
  assert.equal(
    parseMetricsOutput("otlp=not a url"),
    'otlp: "not a url" is not a URL; give an http(s) URL, e.g. otlp=http://127.0.0.1:4318/v1/metrics',
  );
  assert.equal(
    parseMetricsOutput("prometheus-remote-write=ftp://h/w"),
    'prometheus-remote-write: "ftp://h/w" is not http(s); give an http(s) URL, e.g. ' +
      "prometheus-remote-write=http://127.0.0.1:9090/api/v1/write",
  );
});
