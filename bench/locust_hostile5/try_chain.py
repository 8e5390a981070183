# try/except/else/finally with raise ... from, and r.json() on a body that is not JSON.
from locust import HttpUser, constant, task


class ParseError(Exception):
    pass


class Strict(HttpUser):
    wait_time = constant(0.2)
    parsed = 0

    def parse(self, r):
        try:
            data = r.json()
        except ValueError as e:
            raise ParseError(f"not json: {r.text[:13]}") from e
        else:
            Strict.parsed += 1
            return data
        finally:
            r.headers.get("content-type")

    @task
    def good(self):
        with self.client.get("/json", name="good json", catch_response=True) as r:
            self.parse(r)

    @task
    def bad(self):
        with self.client.get("/", name="text as json", catch_response=True) as r:
            try:
                self.parse(r)
            except ParseError as e:
                r.failure(str(e))

    @task
    def unhandled(self):
        r = self.client.get("/", name="raised")
        self.parse(r)
