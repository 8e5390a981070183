# Unique coupons handed out from one queue: each user takes its own, waits for one another user gives back.
import queue

from locust import HttpUser, constant, events, task

COUPONS = queue.Queue()


@events.test_start.add_listener
def fill(environment, **kwargs):
    for code in ("SPRING", "SUMMER", "AUTUMN"):
        COUPONS.put(code)


class Buyer(HttpUser):
    wait_time = constant(0.5)

    def on_start(self):
        try:
            self.coupon = COUPONS.get(timeout=2)
        except queue.Empty:
            self.coupon = None
        self.client.get("/json", name=f"coupon {self.coupon.split('-')[0] if self.coupon else None}")

    @task
    def redeem(self):
        if self.coupon is not None and not self.coupon.startswith("USED"):
            COUPONS.put(f"USED-{self.coupon}")
            self.coupon = "USED"
        self.client.get("/", name="browse")
