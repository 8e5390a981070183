// args: -i 1
// options.dns with a select k6 does not know.
import http from "k6/http";

export const options = { dns: { select: "nearest" } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
