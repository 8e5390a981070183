// args: -u 1 -i 2
// env: K6_TAGS=env:ci,team:web
// K6_TAGS replaces options.tags whole: team is web, region is gone, env is ci.
import http from "k6/http";

export const options = {
  tags: { team: "api", region: "eu" },
  thresholds: {
    "http_reqs{team:web}": ["count==2"],
    "http_reqs{env:ci}": ["count==2"],
    "http_reqs{team:api}": ["count==0"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
