// args: -u 1 -i 2
// A typed API client with a generic request helper, an abstract base and a readonly config.
import http, { type RefinedResponse, type ResponseType } from "k6/http";
import { check } from "k6";

type Json = Record<string, unknown>;

abstract class Client {
  constructor(protected readonly base: string) {}
  abstract name(): string;
  protected get<T extends Json>(path: string): T {
    const res: RefinedResponse<ResponseType> = http.get(`${this.base}${path}`, {
      tags: { client: this.name() },
    });
    return res.json() as T;
  }
}

class Orders extends Client {
  name(): string {
    return "orders";
  }
  find(id: number): { args: { id: string } } {
    return this.get<{ args: { id: string } }>(`/get?id=${id}`);
  }
}

export const options = { thresholds: { "http_reqs{client:orders}": ["count==2"], checks: ["rate==1"] } };

export default function (): void {
  const orders = new Orders("http://127.0.0.1:18481");
  check(orders.find(9), { "typed field": (o) => o.args.id === "9" });
}
