// args: -u 1 -i 2
// A script written for a k6 binary built with an extension (k6/x/...), run with a stock k6.
import http from "k6/http";
import faker from "k6/x/faker";

export default function () {
  http.get(`http://127.0.0.1:18481/get?name=${faker.person.name()}`);
}
