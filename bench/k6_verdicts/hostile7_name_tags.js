// args: -i 3
// Request names: a tags.name over a URL with ids, http.url's template name, and a thresholds per name.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_reqs{name:GetItem}": ["count==3"],
    "http_reqs{name:http://127.0.0.1:18481/anything/${}}": ["count==3"],
    "http_req_duration{name:GetItem,method:GET}": ["max<30000"],
    "http_reqs{name:http://127.0.0.1:18481/get?id=1}": ["count==0"],
  },
};

export default function () {
  http.get(`http://127.0.0.1:18481/get?id=${__ITER}`, { tags: { name: "GetItem" } });
  http.get(http.url`http://127.0.0.1:18481/anything/${__ITER}`);
}
