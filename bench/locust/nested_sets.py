# args: -u 20 -r 20 -t 8s
# A shop's journey as nested task sets: browsing holds a product page set; each set leaves by interrupt().
import random

from locust import HttpUser, TaskSet, between, task


class ProductPage(TaskSet):
    def on_start(self):
        self.product = random.randint(1, 20)

    @task(3)
    def view(self):
        self.client.get(f"/fib/{self.product}", name="product")

    @task(1)
    def leave(self):
        self.interrupt()


class Browse(TaskSet):
    tasks = {ProductPage: 2}

    @task(3)
    def listing(self):
        self.client.get("/home", name="listing")

    @task(1)
    def done(self):
        self.interrupt()


class Shopper(HttpUser):
    wait_time = between(0.1, 0.2)
    tasks = [Browse]

    @task
    def front(self):
        self.client.get("/", name="front")
