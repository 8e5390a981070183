# args: -u 20 -r 20 -t 12s
# A shop's journeys as a Markov chain: each page names the pages that may follow it, by weight; product
# pages grouped under one name with rename_request, options added by an init_command_line_parser listener.
import random

from locust import HttpUser, MarkovTaskSet, between, events, transition, transitions


@events.init_command_line_parser.add_listener
def _(parser):
    parser.add_argument("--max-product", type=int, env_var="LOCUST_MAX_PRODUCT", default=20, help="ids")


class Journey(MarkovTaskSet):
    @transitions({"product": 3, "search": 1})
    def home(self):
        self.client.get("/", name="home")

    @transitions([("product", 2), "home"])
    def search(self):
        self.client.get("/validate", params={"id": 1, "name": "teapot"}, name="search")

    @transition("checkout", weight=1)
    @transition("home", weight=2)
    def product(self):
        with self.client.rename_request("/fib/[id]"):
            self.client.get(f"/fib/{random.randint(1, self.user.environment.parsed_options.max_product)}")

    @transition("home")
    def checkout(self):
        self.client.post("/echo", json={"paid": True}, name="checkout")


class Shopper(HttpUser):
    wait_time = between(0.2, 0.4)
    tasks = [Journey]
