# args: -u 20 -r 20 -t 12s --tags read checkout --exclude-tags slow
# A shop API tagged by area: a nightly run picks the read and checkout paths and leaves out the slow ones.
from locust import HttpUser, SequentialTaskSet, between, tag, task


@tag("checkout")
class Checkout(SequentialTaskSet):
    @task
    def basket(self):
        self.client.post("/echo", json={"sku": 42}, name="basket")

    @task
    def pay(self):
        self.client.get("/json", name="pay")
        self.interrupt()


class Customer(HttpUser):
    wait_time = between(0.2, 0.4)
    tasks = {Checkout: 1}

    @tag("read")
    @task(4)
    def catalog(self):
        self.client.get("/json", name="catalog")

    @tag("read", "slow")
    @task(2)
    def report(self):
        self.client.get("/sleep?ms=300", name="report")

    @tag("write")
    @task
    def review(self):
        self.client.post("/echo", data={"stars": "5"}, name="review")

    @task
    def untagged(self):
        self.client.get("/", name="untagged")
