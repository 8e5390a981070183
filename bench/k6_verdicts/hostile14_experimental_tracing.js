// args: -i 1
// k6/experimental/tracing's instrumentHTTP.
import http from "k6/http";
import tracing from "k6/experimental/tracing";

tracing.instrumentHTTP({ propagator: "w3c" });

export default function () {
  http.get("http://127.0.0.1:18482/json");
}
