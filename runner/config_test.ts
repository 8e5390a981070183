import assert from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "./config.ts";
import { measuredDurationMs } from "./load/models/mod.ts";
import { DEFAULT_DURATION_MS, MAX_RATE_PER_SEC } from "./load/models/fields.ts";
import { ConfigError } from "../validation/config_error.ts";

const url = "http://127.0.0.1:8080/";

function issuesOf(input: unknown): Array<{ path: string; message: string }> {
  try {
    parseAttackConfig(input as AttackConfigInput);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.issues;
  }
  assert.fail("expected a ConfigError");
}

Deno.test("parseAttackConfig fills each model's defaults from the schema", () => {
  const closed = parseAttackConfig({ url, model: "connections" });
  assert.equal(closed.model === "connections" && closed.connections, 10);
  assert.equal(measuredDurationMs(closed), DEFAULT_DURATION_MS);
  assert.equal(closed.requestMix[0].method, "GET");
  const open = parseAttackConfig({ url, model: "rate", phases: [{ durationMs: 500, ratePerSec: 10 }] });
  assert.equal(open.model === "rate" && open.maxConnections, 1_000);
  assert.equal(measuredDurationMs(open), 500);
  const count = parseAttackConfig({ url, model: "count", requests: 5 });
  assert.equal(measuredDurationMs(count), Infinity);
});

Deno.test("each model's required field is missing by name", () => {
  assert.deepEqual(issuesOf({ url, model: "rate" }), [{
    path: "phases",
    message: "missing; expected a list",
  }]);
  assert.deepEqual(issuesOf({ url, model: "throughput" }), [
    { path: "ratePerSec", message: "missing; expected a number" },
  ]);
  assert.deepEqual(issuesOf({ url, model: "count" }), [
    { path: "requests", message: "missing; expected a whole number" },
  ]);
});

Deno.test("a field the model would ignore is an error, with the model's own fields suggested", () => {
  const phases = [{ durationMs: 1000, ratePerSec: 1 }];
  assert.deepEqual(issuesOf({ url, model: "rate", phases, maxConection: 5 }), [
    { path: "maxConection", message: 'unknown key; did you mean "maxConnections"?' },
  ]);
  // Past 12 keys allowed, the first 12 and where all are.
  const [other] = issuesOf({ url, model: "rate", phases, requests: 5 });
  assert.equal(other.path, "requests");
  assert.match(
    other.message,
    /^unknown key; allowed: model, url, .*, \.\.\. \(loadlab schema lists all \d+\)$/,
  );
  assert.match(issuesOf({ url, model: "connections", requets: 5 })[0].message, /^unknown key; allowed: /);
});

Deno.test("an unknown model names the models; workers must not exceed connections", () => {
  assert.deepEqual(issuesOf({ url, model: "cont" }), [
    {
      path: "model",
      message:
        'expected one of "connections", "rate", "throughput", "count", "ramping-connections", found "cont"; did you mean "count"?',
    },
  ]);
  assert.deepEqual(issuesOf({ url, model: "connections", connections: 2, workers: 3 }), [
    { path: "workers", message: "workers (3) must not exceed connections (2)" },
  ]);
});

Deno.test("ConfigError's message is the formatted lines", () => {
  try {
    parseAttackConfig({ url: "ftp://x/", model: "count", requests: 0 });
    assert.fail("expected a ConfigError");
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.equal(err.message, err.issues.map((i) => `${i.path}: ${i.message}`).join("; "));
    assert.deepEqual(err.issues.map((i) => i.path), ["url", "requests"]);
  }
});

Deno.test("rates are capped at MAX_RATE_PER_SEC and durations at 7 days, every model", () => {
  const week = 7 * 24 * 3_600_000;
  const paths = (input: AttackConfigInput) => {
    try {
      parseAttackConfig(input);
      return [];
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return err.issues.map((i) => i.path);
    }
  };
  assert.deepEqual(paths({ url, model: "throughput", ratePerSec: MAX_RATE_PER_SEC + 1 }), ["ratePerSec"]);
  assert.deepEqual(paths({ url, model: "throughput", ratePerSec: MAX_RATE_PER_SEC }), []);
  assert.deepEqual(paths({ url, model: "connections", durationMs: week + 1 }), ["durationMs"]);
  assert.deepEqual(paths({ url, model: "connections", durationMs: week }), []);
  assert.deepEqual(paths({ url, model: "rate", phases: [{ durationMs: 1000, ratePerSec: 2e7 }] }), [
    "phases[0].ratePerSec",
  ]);
  const halfWeek = { durationMs: week / 2 + 1, ratePerSec: 1 };
  assert.deepEqual(paths({ url, model: "rate", phases: [halfWeek, halfWeek] }), ["phases"]);
  assert.deepEqual(paths({ url, model: "count", requests: 1e12, ratePerSec: 10 }), ["requests"]);
  assert.deepEqual(paths({ url, model: "count", requests: 1e12, ratePerSec: 10, durationMs: 1000 }), []);
  assert.deepEqual(paths({ url, model: "connections", timeoutMs: week + 1 }), ["timeoutMs"]);
});

Deno.test("maxMemoryMb: a whole number of MB from 256 to 1 TiB, or absent (chosen from the machine)", () => {
  assert.equal(parseAttackConfig({ url, model: "connections" }).maxMemoryMb, undefined);
  assert.equal(parseAttackConfig({ url, model: "connections", maxMemoryMb: 4096 }).maxMemoryMb, 4096);
  for (const maxMemoryMb of [100, 255, 2048.5, 2 ** 21]) {
    const issues = issuesOf({ url, model: "connections", maxMemoryMb });
    assert.deepEqual(issues.map((i) => i.path), ["maxMemoryMb"], String(maxMemoryMb));
    assert.match(issues[0].message, /^(max memory must be |expected a whole number)/);
  }
  assert.match(
    issuesOf({ url, model: "connections", maxMemoryMb: 100 })[0].message,
    /or left out to have it chosen from the machine's free memory \(found 100\)$/,
  );
});

Deno.test("HTTP/2 takes a connection per arrival, one stream each: streams beside it are refused", () => {
  const h2 = parseAttackConfig({
    url,
    model: "count",
    requests: 5,
    protocol: "h2",
    connection: "per-arrival",
  });
  assert.deepEqual([h2.protocol, h2.connection, h2.streams], ["h2", "per-arrival", 1]);
  const h2c = parseAttackConfig({
    url,
    model: "rate",
    phases: [{ durationMs: 500, ratePerSec: 10 }],
    protocol: "h2c",
    connection: "per-arrival",
  });
  assert.equal(h2c.connection, "per-arrival");
  assert.deepEqual(
    issuesOf({ url, model: "count", requests: 5, protocol: "h2", connection: "per-arrival", streams: 4 }),
    [{
      path: "streams",
      message: "a per-arrival connection carries its arrival's one request on one stream: " +
        "drop streams, or keep connections alive",
    }],
  );
});

Deno.test("protocol auto on an http:// URL speaks HTTP/1.1: streams beside it are refused, not dropped", () => {
  const plain = "http://127.0.0.1:8080/";
  assert.deepEqual(issuesOf({ url: plain, model: "count", requests: 5, protocol: "auto", streams: 4 }), [{
    path: "streams",
    message: "protocol auto on an http:// URL speaks HTTP/1.1: use protocol h2c for HTTP/2, or drop streams",
  }]);
  assert.equal(
    parseAttackConfig({ url: plain, model: "count", requests: 5, protocol: "h2c", streams: 4 }).streams,
    4,
  );
  const tls = "https://127.0.0.1:8443/";
  assert.equal(
    parseAttackConfig({ url: tls, model: "count", requests: 5, protocol: "auto", streams: 4 }).streams,
    4,
  );
});

Deno.test("HTTP/2 takes data sources, placeholders in paths, values and bodies, and flows; not placeholders in header names", () => {
  const data = { name: "users", columns: ["id"], rows: [["1"]] };
  const templated = {
    method: "POST",
    path: "/u/{{ id }}",
    headers: [["x-id", "{{ id }}"]] as [string, string][],
    body: new TextEncoder().encode("{{ id }}"),
  };
  for (const protocol of ["h2", "h2c"] as const) {
    const c = parseAttackConfig({
      url,
      model: "count",
      requests: 5,
      protocol,
      data,
      requestMix: [templated],
    });
    assert.deepEqual([c.protocol, c.data?.columns], [protocol, ["id"]]);
  }
  assert.deepEqual(
    issuesOf({
      url,
      model: "count",
      requests: 5,
      protocol: "h2",
      data,
      requestMix: [{}, { headers: [["x-{{ id }}", "1"]] }],
    }),
    [{
      path: "requestMix[1].headers",
      message:
        'header name "x-{{ id }}" has a placeholder: over protocol h2 only values, paths and bodies take them',
    }],
  );
  const flows = [{ name: "f", steps: [{ request: { path: "/" } }] }];
  for (const protocol of ["h2", "h2c"] as const) {
    const u = protocol === "h2" ? "https://127.0.0.1:8443" : url;
    for (const connection of ["keep-alive", "per-arrival"] as const) {
      const c = parseAttackConfig({ url: u, model: "count", requests: 5, protocol, connection, flows });
      assert.deepEqual([c.protocol, c.connection, c.flows?.length], [protocol, connection, 1]);
    }
  }
  assert.deepEqual(
    issuesOf({ url, model: "count", requests: 5, protocol: "h2c", flows, pipelining: 2 }).map((i) => i.path),
    ["pipelining"], // by flows, and by HTTP/2 (streams, not pipelining): one line a value
  );
  const named = [{ name: "f", steps: [{ request: { path: "/", headers: [["x-{{ a }}", "1"]] } }] }];
  assert.deepEqual(
    issuesOf({ url, model: "count", requests: 5, protocol: "h2c", flows: named }).map((i) => i.path),
    ["flows[0].steps[0].request.headers"],
  );
});

Deno.test("concurrency is dealt over fixed HTTP/2 connections, between one stream on each and all their streams", () => {
  const h2 = { url, protocol: "h2c" as const, connections: 4, streams: 13 };
  assert.equal(parseAttackConfig({ ...h2, model: "connections", concurrency: 50 }).concurrency, 50);
  assert.match(
    issuesOf({ ...h2, model: "connections", concurrency: 53 })[0].message,
    /between connections \(4\) and connections x streams \(52\)/,
  );
  assert.match(issuesOf({ ...h2, model: "connections", concurrency: 3 })[0].message, /between connections/);
  const open = {
    url,
    protocol: "h2c",
    streams: 13,
    model: "rate",
    phases: [{ durationMs: 500, ratePerSec: 10 }],
  };
  assert.match(issuesOf({ ...open, concurrency: 5 })[0].message, /dealt over fixed connections/);
});
