import http from "k6/http";
import { check, sleep } from "k6";

export class ShopPage {
  constructor(base) {
    this.base = base;
  }

  open() {
    const res = http.get(`${this.base}/json`, { tags: { page: "shop" } });
    check(res, { "shop opened": (r) => r.status === 200 });
    return this;
  }

  think(seconds) {
    sleep(seconds);
    return this;
  }

  search(q) {
    return http.get(`${this.base}/get?q=${q}`, { tags: { page: "search" } });
  }
}
