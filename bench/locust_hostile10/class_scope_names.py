# A class body's comprehension: its first iterable reads the class's names, its body cannot (a NameError).
from locust import HttpUser, constant, task


class Scoped(HttpUser):
    wait_time = constant(0.25)
    prefix = "/json?page="
    pages = [1, 2]
    firsts = [p * 10 for p in pages]
    paths = [prefix + str(p) for p in pages]

    @task
    def each(self):
        for path in self.paths:
            self.client.get(path, name="page")
