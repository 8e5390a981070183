# A client wrapper whose errors chain (raise ... from), each handler counted by try/except/else/finally.
from locust import HttpUser, constant, task


class ApiError(Exception):
    pass


class NotFound(ApiError):
    def __init__(self, path):
        super().__init__(f"missing {path}")
        self.path = path


def check(resp, path):
    try:
        body = resp.json()
    except ValueError as e:
        raise ApiError(f"not json at {path}") from e
    else:
        if "error" in body:
            raise NotFound(path)
        return body
    finally:
        resp.checked = True


class Checker(HttpUser):
    wait_time = constant(0.2)

    @task
    def run(self):
        for path in ("/json", "/", "/validate?id=x"):
            r = self.client.get(path, name="fetch")
            try:
                check(r, path)
            except NotFound as e:
                self.client.get("/", name=f"not found {e.path.split('?')[0]}")
            except ApiError as e:
                cause = type(e.__cause__).__name__
                self.client.get("/", name=f"api error {cause}")
            else:
                self.client.get("/", name="ok")
