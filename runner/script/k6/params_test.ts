/**
 * k6 request params loadlab does not honour are refused by name as the call is made, before anything is sent
 * (k6/http's and k6/ws's alike), so a script never runs with an option silently dropped.
 */
import { rejects } from "node:assert/strict";
import { request } from "./http.ts";
import { connect } from "./ws.ts";

Deno.test("an unknown param of http.request and ws.connect is refused by name, nothing sent", async () => {
  // Loopback port 9 (discard): were the param not refused first, the refusal would be a connection error.
  await rejects(
    request("GET", "http://127.0.0.1:9/", null, { proxy: "x" } as never),
    new TypeError("http params.proxy is not supported by loadlab's k6 runtime"),
  );
  await rejects(
    connect("ws://127.0.0.1:9/", { subprotocol: "x" } as never, () => {}),
    new TypeError("params.subprotocol is not supported by loadlab's k6 runtime"),
  );
});
