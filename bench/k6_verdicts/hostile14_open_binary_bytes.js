// args: -i 2
// open(file, "b") as an ArrayBuffer: its first bytes read through a Uint8Array, posted as a file.
import http from "k6/http";
import { check } from "k6";

const png = open("./data/pixel.png", "b");
const head = new Uint8Array(png, 0, 4);

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.post("http://127.0.0.1:18481/post", { pic: http.file(png, "pixel.png", "image/png") });
  check(png, {
    "an ArrayBuffer": (b) => b instanceof ArrayBuffer,
    "67 bytes": (b) => b.byteLength === 67,
    "PNG magic": () => head[0] === 0x89 && String.fromCharCode(head[1], head[2], head[3]) === "PNG",
  });
  check(res, { "posted": (r) => r.status === 200 });
}
