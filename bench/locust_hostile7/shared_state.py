# A payments team counts across users with class attributes, globals, nonlocal closures and properties.
from locust import HttpUser, constant, task

SENT = 0


def counter(start=0):
    count = start

    def bump(step=1):
        nonlocal count
        count += step
        return count

    return bump


class Base(HttpUser):
    abstract = True
    created = 0
    wait_time = constant(0.1)

    def __init__(self, environment):
        super().__init__(environment)
        Base.created += 1
        self.bump = counter(10)

    @property
    def label(self):
        return f"user{'s' if Base.created > 1 else ''}"


class Payer(Base):
    @task
    def pay(self):
        global SENT
        SENT += 1
        n = self.bump()
        self.client.post("/echo", json={"n": n, "sent": SENT}, name=f"pay as {self.label}")

    @task
    def check(self):
        self.client.get("/json", name="check" if self.bump(0) >= 10 else "check broken")
