# Walrus in conditions and comprehensions, generators with yield and yield from, next() with a default.
from locust import HttpUser, constant, task


def pages(limit):
    n = 0
    while (n := n + 1) <= limit:
        yield f"/json?page={n}"


def everything():
    yield "/"
    yield from pages(2)


class Walker(HttpUser):
    wait_time = constant(0.3)

    def on_start(self):
        self.paths = everything()

    @task
    def walk(self):
        if (path := next(self.paths, None)) is None:
            self.paths = everything()
            path = next(self.paths)
        self.client.get(path, name="walk")
        sizes = [size for p in ("a", "bb", "ccc") if (size := len(p)) > 1]
        total = sum(x * x for x in sizes)
        self.client.get("/json", name=f"sizes {sizes} {total}")
