// args: -u 1 -i 1
// An old import of a k6 module that has since graduated: k6 refuses it at init with its hint.
import http from "k6/http";
import { setTimeout } from "k6/experimental/timers";

export default function () {
  setTimeout(() => http.get("http://127.0.0.1:18481/get"), 10);
}
