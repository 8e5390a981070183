// args: -i 1
// A summaryTimeUnit k6 does not know.
import http from "k6/http";

export const options = { summaryTimeUnit: "minutes" };

export default function () {
  http.get("http://127.0.0.1:18482/json");
}
