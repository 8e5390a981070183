// args: -u 1 -i 3
// options.tags and request tags with numbers and booleans, as YAML-minded teams write them.
import http from "k6/http";

export const options = {
  tags: { build: 4711, canary: true },
  thresholds: {
    "http_reqs{build:4711}": ["count==6"],
    "http_reqs{canary:true}": ["count==6"],
    "http_reqs{shard:2}": ["count==3"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get", { tags: { shard: 2 } });
  http.get("http://127.0.0.1:18481/get?x=1");
}
