// args: -i 2
// An init error after a request-free init: k6 exits 107 before any load.
import http from "k6/http";

const config = JSON.parse(open("./data/h15_config.json"));
if (config.vus === 2) throw new Error("refusing to start with two VUs");

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
