import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { controlResponse, newSteerToken } from "./steer_control.ts";
import { steeringFor } from "./flags.ts";
import { RunSteering } from "../../runner/steering.ts";

const serve = { host: "127.0.0.1", port: 0, open: false };

Deno.test("steering is off for results gated by thresholds unless --steer, and off with --no-steer", () => {
  ok(steeringFor(serve, false) instanceof RunSteering);
  ok(steeringFor({ ...serve, steer: true }, true) instanceof RunSteering);
  ok(/thresholds gate the result \(give --steer/.test(String(steeringFor(serve, true))));
  assertEquals(steeringFor({ ...serve, steer: false }, false), "--no-steer");
});

Deno.test("control: off is 403 with the reason; a token is needed; between runs a change is 409", async () => {
  const token = newSteerToken();
  ok(/^[0-9a-f]{64}$/.test(token) && token !== newSteerToken());
  const at = (steering: RunSteering | null, init: RequestInit & { headers?: Record<string, string> }) =>
    controlResponse(new Request("http://127.0.0.1:8700/control", init), {
      steering,
      offReason: "this run file's thresholds gate the result",
      token,
      listenHost: "127.0.0.1",
      port: 8700,
    });
  const off = await at(null, { headers: { "x-loadlab-token": token } });
  assertEquals([off.status, (await off.json()).error], [
    403,
    "steering is off: this run file's thresholds gate the result",
  ]);
  const steering = new RunSteering();
  assertEquals((await at(steering, {})).status, 403);
  assertEquals(
    (await at(steering, { headers: { "x-loadlab-token": token, origin: "http://localhost:8700" } })).status,
    200,
  );
  assertEquals(
    (await at(steering, { headers: { "x-loadlab-token": token, origin: "http://localhost:8701" } })).status,
    403,
  );
  assertEquals((await at(steering, { headers: { "x-loadlab-token": token, origin: "null" } })).status, 403);
  const post = (body: string, type = "application/json") =>
    at(steering, { method: "POST", body, headers: { "x-loadlab-token": token, "content-type": type } });
  assertEquals((await post('{"action":"pause"}')).status, 409);
  assertEquals((await post("[1]")).status, 400);
  assertEquals((await post('{"action":"pause"}', "text/plain")).status, 400);
  assertEquals((await at(steering, { method: "DELETE", headers: { "x-loadlab-token": token } })).status, 405);
});
