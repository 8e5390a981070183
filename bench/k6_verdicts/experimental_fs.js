// args: -i 2
// k6/experimental/fs: a file opened once in init code, read and sought per iteration, its size from stat().
import http from "k6/http";
import { check } from "k6";
import { open, SeekMode } from "k6/experimental/fs";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const file = await open("data/users.json");

export const options = { thresholds: { checks: ["rate==1"] } };

export default async function () {
  const info = await file.stat();
  const buffer = new Uint8Array(4);
  await file.seek(0, SeekMode.Start);
  const read = await file.read(buffer);
  check(http.get(`${BASE}/get`), {
    "file read": () => read === 4 && info.size > 4,
    "sent": (r) => r.status === 200,
  });
}
