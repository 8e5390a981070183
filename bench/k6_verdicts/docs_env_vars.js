// args: -e MY_HOSTNAME=127.0.0.1:18482 -e VUS=3 -e EMPTY= -u 1 -i 3
// k6's documentation's environment variables: `-e` values read in init (a host, a number for options),
// an empty value, and one not given.
import http from "k6/http";
import { check } from "k6";

export const options = {
  vus: Number(__ENV.VUS || 1),
  iterations: 6,
  thresholds: { checks: ["rate==1"], vus_max: ["value==3"], iterations: ["count==6"] },
};

export default function () {
  const res = http.get(`http://${__ENV.MY_HOSTNAME}/get`);
  check(res, {
    "second server": (r) => r.status === 200 && r.url.includes("18482"),
    "empty is empty": () => __ENV.EMPTY === "",
    "missing is undefined": () => __ENV.NOT_GIVEN === undefined,
  });
}
