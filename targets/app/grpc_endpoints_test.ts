import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import http2 from "node:http2";
import { serveGrpcTarget } from "./grpc_endpoints.ts";

/** One plain HTTP/2 request to `port`: its status, content type and body. */
function request(port: number, method: string, path: string, body?: string) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const client = http2.connect(`http://127.0.0.1:${port}`);
    client.on("error", reject);
    const headers = { ":method": method, ":path": path, "content-type": "application/json" };
    const req = client.request(headers, { endStream: body === undefined });
    const chunks: Buffer[] = [];
    let status = 0, type = "";
    req.on("response", (h) => {
      status = Number(h[":status"]);
      type = String(h["content-type"] ?? "");
    });
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      client.close();
      resolve({ status, type, body: Buffer.concat(chunks).toString() });
    });
    req.on("error", reject);
    if (body !== undefined) req.end(body);
  });
}

Deno.test("the gRPC listener answers POST /echo with JSON as plain HTTP/2, anything else 404", async () => {
  const target = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  try {
    const json = JSON.stringify({ data: "eHh4" });
    assert.deepEqual(await request(target.port, "POST", "/echo", json), {
      status: 200,
      type: "application/json",
      body: json,
    });
    assert.equal((await request(target.port, "GET", "/")).status, 404);
  } finally {
    await target.close();
  }
});
