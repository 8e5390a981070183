/**
 * Built-in placeholders filled per request: `$uuid()` is a fresh random UUID v4 each time (`$uuid(request)`
 * one a request), `$now(unit)` the time of the fill, `$worker()` the lane filling it.
 */
import { match, notStrictEqual, ok, throws } from "node:assert/strict";
import { fillLane, partsOf, upperBound, writeParts } from "./template.ts";

Deno.test("$uuid() is a random UUID v4 (RFC 9562) at each fill", () => {
  const parts = partsOf('{"id":"{{ $uuid() }}"}', () => -1);
  const fill = () => {
    const buf = new Uint8Array(upperBound(parts, []));
    return new TextDecoder().decode(buf.subarray(0, writeParts(buf, 0, parts, [])));
  };
  const first = fill();
  match(first, /^\{"id":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"\}$/);
  notStrictEqual(fill(), first);
});

Deno.test("$uuid(request) is one UUID wherever it is in a request, a new one for the next", () => {
  const parts = partsOf("{{ $uuid(request) }} {{ $uuid(request) }} {{ $uuid() }}", () => -1);
  const fill = () => {
    fillLane.uuidDrawn = false;
    const buf = new Uint8Array(upperBound(parts, []));
    return new TextDecoder().decode(buf.subarray(0, writeParts(buf, 0, parts, []))).split(" ");
  };
  const [a, b, c] = fill();
  match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  ok(a === b && c !== a, `${a} ${b} ${c}`);
  notStrictEqual(fill()[0], a);
});

Deno.test("$now(unit) is the time of the fill in its unit, $worker() the filling lane's ID", () => {
  const parts = partsOf(
    "{{ $now(s) }} {{ $now(ms) }} {{ $now(ns) }} {{ $now(rfc3339) }} {{ $worker() }}",
    () => -1,
  );
  fillLane.id = new TextEncoder().encode("g3c1");
  const before = Date.now();
  const buf = new Uint8Array(upperBound(parts, []));
  const text = new TextDecoder().decode(buf.subarray(0, writeParts(buf, 0, parts, [])));
  const after = Date.now();
  const [s, ms, ns, rfc3339, worker] = text.split(" ");
  // A time in ms, or its second's start (`round` 1000), is one of the fill's.
  const within = (t: number, round = 1) => t + round - 1 >= before - 5 && t <= after + 5;
  ok(within(Number(s) * 1000, 1000) && within(Number(ms)) && within(Number(ns.slice(0, -6))), text);
  match(ns, /^\d{19}$/);
  ok(within(Date.parse(rfc3339), 1000) && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(rfc3339), rfc3339);
  ok(worker === "g3c1", worker);
  // `$now(unit, request)` is read once a request: the same wherever it is, anew for the next.
  const once = partsOf("{{ $now(ns, request) }}{{ $uuid() }}{{ $now(ns, request) }}", () => -1);
  const read = () => {
    fillLane.uuidDrawn = false;
    const buf = new Uint8Array(upperBound(once, []));
    return new TextDecoder().decode(buf.subarray(0, writeParts(buf, 0, once, [])));
  };
  const [a, b] = [read(), read()];
  ok(a.slice(0, 19) === a.slice(-19) && b.slice(0, 19) === b.slice(-19), `${a} ${b}`);
});

Deno.test("$randomString(n) fills n letters up to 16 MiB (a gRPC message of a few MiB), past it is refused", () => {
  const parts = partsOf("{{ $randomString(4194298) }}", () => -1);
  const buf = new Uint8Array(upperBound(parts, []));
  const n = writeParts(buf, 0, parts, []);
  ok(n === 4194298 && /^[A-Za-z0-9]+$/.test(new TextDecoder().decode(buf.subarray(0, 64))), String(n));
  throws(() => partsOf(`{{ $randomString(${2 ** 24 + 1}) }}`, () => -1), /needs 1 <= n <= 16777216/);
});
