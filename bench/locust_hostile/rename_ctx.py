# args: -u 4 -r 4 -t 8s
# rename_request around several requests, with a name= inside it and a catch_response block.
from locust import FastHttpUser, constant, task


class Items(FastHttpUser):
    wait_time = constant(0.5)

    @task
    def items(self):
        with self.client.rename_request("/fib/[n]"):
            for n in (1, 2, 3):
                self.client.get(f"/fib/{n}")
            self.client.get("/fib/4", name="fib four")
            with self.client.get("/fib/999", catch_response=True) as r:
                if r.status_code == 400:
                    r.success()
        self.client.get("/fib/5")
