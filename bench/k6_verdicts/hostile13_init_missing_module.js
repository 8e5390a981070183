// args: -u 1 -i 1
// An import of a local module that is not there: k6 exits 107 before any request.
import http from "k6/http";
import { helper } from "./lib/not_there.js";

export default function () {
  http.get("http://127.0.0.1:18481/get");
  helper();
}
