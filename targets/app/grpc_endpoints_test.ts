import assert from "node:assert/strict";
import { requireProgram } from "../../tests/helpers.ts";
import { serveGrpcTarget } from "./grpc_endpoints.ts";

/** One plain HTTP/2 (h2c) request to `port` by curl: its status, content type and body. */
async function request(port: number, method: string, path: string, body?: string) {
  const data = body === undefined ? [] : ["-H", "content-type: application/json", "--data-binary", body];
  const args = [
    "-s",
    "--http2-prior-knowledge",
    "-X",
    method,
    ...data,
    "-w",
    "\n%{http_code} %{content_type}",
  ];
  const out = await new Deno.Command("curl", { args: [...args, `http://127.0.0.1:${port}${path}`] }).output();
  const text = new TextDecoder().decode(out.stdout);
  const [status, type] = text.slice(text.lastIndexOf("\n") + 1).split(" ");
  return { status: Number(status), type, body: text.slice(0, text.lastIndexOf("\n")) };
}

Deno.test("the gRPC listener answers POST /echo with JSON as plain HTTP/2, anything else 404", async () => {
  if (!requireProgram("curl")) return;
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
