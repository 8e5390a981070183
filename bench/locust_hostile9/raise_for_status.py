# raise_for_status() inside catch_response: the HTTPError caught and made the request's failure.
from locust import HttpUser, constant, task
from requests.exceptions import HTTPError


class Strict(HttpUser):
    wait_time = constant(0.25)

    @task
    def strict(self):
        for path, name in (("/json", "good"), ("/error/1", "server"), ("/nowhere", "missing")):
            with self.client.get(path, name=name, catch_response=True) as r:
                try:
                    r.raise_for_status()
                except HTTPError as e:
                    r.failure(f"status {e.response.status_code}")
                else:
                    r.success()
