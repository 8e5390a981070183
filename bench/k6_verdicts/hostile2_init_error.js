// args: -u 2 -i 2
// An init-context error: a data file that is not there (a wrong relative path), read by open() at the
// top of the script; k6 ends before any VU with exit 107.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const users = JSON.parse(open("./data/missing_users.json"));

export default function () {
  http.get(`${BASE}/get?u=${users[__VU % users.length].id}`);
}
