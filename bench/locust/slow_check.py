# args: -u 15 -r 15 -t 12s
# An SLA check inside catch_response: slow answers fail by their elapsed time; a loop of named requests.
from locust import FastHttpUser, constant, task


class Sla(FastHttpUser):
    wait_time = constant(0.3)

    @task(2)
    def slow_page(self):
        with self.client.get("/sleep?ms=60", name="sla page", catch_response=True) as response:
            if response.elapsed.total_seconds() > 0.05:
                response.failure(f"too slow: {response.elapsed.total_seconds():.2f}s")
            elif response.status_code != 200:
                response.failure("bad status")

    @task(1)
    def pages(self):
        for n in range(1, 4):
            self.client.get(f"/fib/{n}", name="/fib/[n]")

    @task(1)
    def validate(self):
        r = self.client.get("/validate", params={"id": 3, "name": "al"}, name="validate short")
        if r.status_code == 400:
            self.client.get("/json", name="after bad")
