// args: -i 2
// k6/experimental/streams over k6/experimental/fs: a file's lines streamed in chunks, one request each.
import http from "k6/http";
import { check } from "k6";
import { open } from "k6/experimental/fs";
import { ReadableStream } from "k6/experimental/streams";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const file = await open("data/queries.csv");

export const options = { thresholds: { checks: ["rate==1"] } };

function chunks(f) {
  return new ReadableStream({
    async pull(controller) {
      const buffer = new Uint8Array(16);
      const n = await f.read(buffer);
      if (n === null) controller.close();
      else controller.enqueue(buffer.subarray(0, n));
    },
  });
}

export default async function () {
  const reader = chunks(file).getReader();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += String.fromCharCode(...value);
  }
  const lines = text.split("\n").filter((l) => l !== "");
  for (const line of lines.slice(1, 3)) {
    check(http.get(`${BASE}/get?q=${encodeURIComponent(line)}`), { "echoed": (r) => r.status === 200 });
  }
  // The iteration's own offset ended at the end: only the first iteration of a VU read any line.
  check(lines, { "first iteration read the file": (l) => (__ITER === 0) === (l.length > 1) });
}
