# A task stops the whole run when its budget of orders is spent.
from locust import HttpUser, constant, events, task

orders = {"n": 0}


@events.test_stop.add_listener
def _(environment, **kw):
    print(f"orders placed: {orders['n']}")


class Orders(HttpUser):
    wait_time = constant(0.2)

    @task
    def order(self):
        self.client.post("/echo", json={"order": orders["n"]}, name="order")
        orders["n"] += 1
        if orders["n"] >= 25:
            self.environment.runner.quit()
