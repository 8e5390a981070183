# Names built in a loop with f-strings, format specs and a shared prefix.
from locust import HttpUser, constant, task

PREFIX = "/fib"


class Walker(HttpUser):
    wait_time = constant(0.5)

    @task
    def walk(self):
        for i in range(1, 4):
            self.client.get(f"{PREFIX}/{i * 5}", name=f"{PREFIX}/[n] step {i:02d}")
        for label in ("alpha", "beta"):
            self.client.get(f"/validate?id={len(label)}&name={label}", name=f"validate {label.upper()!s}")
        ratio = 2 / 3
        self.client.get("/json", name=f"ratio {ratio:.2f}")
