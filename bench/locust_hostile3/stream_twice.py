# A streamed body read twice: its chunks, then .content and the chunks again (requests raises).
from locust import HttpUser, constant, task


class Twice(HttpUser):
    wait_time = constant(0.05)

    @task
    def chunks_first(self):
        r = self.client.get("/json", stream=True, name="chunks first")
        size = sum(len(c) for c in r.iter_content(chunk_size=5))
        try:
            r.content
        except RuntimeError as e:
            self.client.get("/json", name="content again: " + str(e))
        try:
            list(r.iter_lines())
        except Exception:
            self.client.get("/json", name="chunks again")

    @task
    def content_first(self):
        r = self.client.get("/json", stream=True, name="content first")
        body = r.content
        assert sum(len(c) for c in r.iter_content(chunk_size=3)) == len(body)
        assert len(r.text) == len(body) and r.json() is not None
