// args: -i 1
// A tlsVersion k6 does not know.
import http from "k6/http";

export const options = { tlsVersion: "tls1.5" };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
