# args: -u 20 -r 20 -t 8s
# Tasks that call the user's own helper methods, each making two requests and numbering orders in a module
# counter: between a helper's last request and the task's next line no other user runs (as greenlets
# switch only on I/O), so an order's number is still the counter's when the task reads it.
from locust import HttpUser, constant, task

orders = {"last": 0}


class Buyer(HttpUser):
    wait_time = constant(0.05)

    def add_and_view(self):
        self.client.post("/echo", data="sku=1", name="add to cart")
        self.client.get("/json", name="view cart")
        orders["last"] += 1
        return orders["last"]

    def stamp(self, number):
        orders["stamped"] = number

    @task
    def order(self):
        number = self.add_and_view()
        self.stamp(number)
        same = orders["last"] == number and orders["stamped"] == number
        self.client.get("/", name="confirm" if same else "confirm (another order between)")
