// A script with both duration and stages: two ways of the load in one tier, refused by k6 (104).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  duration: "1s",
  stages: [{ duration: "1s", target: 1 }],
};

export default function () {
  http.get(`${BASE}/get`);
}
