# Names that group: params= dicts and lists, a query string in the path, name= over both.
from locust import HttpUser, constant, task


class Search(HttpUser):
    wait_time = constant(0.25)

    def on_start(self):
        self.page = 0

    @task
    def by_params(self):
        self.page += 1
        self.client.get("/json", params={"page": self.page, "tag": ["a", "b"]}, name="/json?page=[n]")

    @task
    def raw_query(self):
        self.client.get(f"/validate?id={self.page}&name=bob")

    @task
    def params_unnamed(self):
        self.client.get("/json", params={"q": "fixed"})
