// args: -u 1 -i 4
// Requests grouped by a `name` tag in params (overriding the URL as the name), and thresholds by name,
// by url (never matches a named request), by method and by status.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_reqs{name:ItemById}": ["count==8"],
    "http_req_duration{name:ItemById}": ["p(95)<3000"],
    "http_reqs{url:http://127.0.0.1:18481/get?id=1}": ["count==0"],
    "http_reqs{method:POST}": ["count==4"],
    "http_reqs{status:201}": ["count==0"],
  },
};

export default function () {
  for (const id of [1, 2]) {
    http.get(`http://127.0.0.1:18481/get?id=${id}`, { tags: { name: "ItemById" } });
  }
  http.post("http://127.0.0.1:18481/post", "x=1", { tags: { name: "Create" } });
}
