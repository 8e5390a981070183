# Names and bodies built with f-string format specs and comprehensions.
import json
import random

from locust import HttpUser, constant, task


class Report(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.page = 0

    @task
    def numbered(self):
        self.page += 1
        n = self.page % 3
        self.client.get(f"/fib/{n + 5}", name=f"fib {n:02d}")

    @task
    def summary(self):
        prices = {f"item{i:03d}": round(i * 1.5, 2) for i in range(4)}
        total = sum(v for v in prices.values())
        lines = [f"{k}={v:>8.2f}" for k, v in sorted(prices.items()) if v > 0]
        body = json.dumps({"total": f"{total:.1f}", "lines": lines, "who": f"{'user'!r}"}, sort_keys=True)
        with self.client.post("/echo", data=body, name="summary", catch_response=True) as r:
            if r.json()["total"] != "9.0" or len(r.json()["lines"]) != 3:
                r.failure(f"bad summary: {r.text[:40]}")

    @task
    def percent(self):
        share = random.randint(1, 99) / 100
        self.client.get(f"/validate?id=1&name={share:.0%}xxxx", name="percent")
