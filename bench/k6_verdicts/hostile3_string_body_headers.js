// args: -i 2
// JSON sent as a string with no Content-Type (a common slip), an empty POST, a PUT with no body, and a
// DELETE with a JSON body; what the server sees of each.
import http from "k6/http";
import { check } from "k6";

export default function () {
  const a = http.post("http://127.0.0.1:18481/post", JSON.stringify({ user: "ann" }));
  check(a, {
    "json parsed by server": (r) => r.json("json.user") === "ann",
    "no content type sent": (r) => r.json("headers.Content-Type") === undefined,
    "content length": (r) => r.json("headers.Content-Length") === "14",
  });
  const b = http.post("http://127.0.0.1:18481/post");
  console.log(`empty post headers: ${JSON.stringify(b.json("headers"))}`);
  check(b, { "empty post length 0": (r) => r.json("headers.Content-Length") === "0" });
  const c = http.put("http://127.0.0.1:18481/put");
  check(c, { "put ok": (r) => r.status === 200 && r.json("data") === "" });
  const d = http.del("http://127.0.0.1:18481/delete", JSON.stringify({ id: 7 }), {
    headers: { "Content-Type": "application/json" },
  });
  check(d, { "delete body": (r) => r.json("json.id") === 7 });
}
