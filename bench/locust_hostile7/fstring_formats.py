# An analytics team names requests with format specs, repr conversions and % formatting.
import random

from locust import HttpUser, constant, task

REGIONS = ["eu-west", "us-east"]


class Reporter(HttpUser):
    wait_time = constant(0.1)
    ratio = 0.125

    @task
    def by_ratio(self):
        self.client.get(f"/validate?id={int(self.ratio * 8)}&name=r{self.ratio:.2f}", name=f"ratio {self.ratio:.1%}")

    @task
    def by_region(self):
        region = random.choice(REGIONS)
        self.client.get("/json", name=f"region {region!r}")

    @task
    def padded(self):
        n = random.randint(1, 9)
        self.client.get("/fib/%d" % n, name="fib %s" % "/%02d".replace("%02d", "n"))
        self.client.get(f"/fib/{n:03d}", name=f"{'fib':>5}|{n:<3}|".strip() if n > 99 else "fib padded")

    @task
    def old_style(self):
        label = "%s-%05.1f" % ("v", 2.5)
        self.client.post("/echo", data="{}={}".format("label", label), name="echo {0}".format("form"))
