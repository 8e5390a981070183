# args: -u 4 -r 4 -t 8s
# A streamed response read as requests reads one: iter_lines, iter_content, raw bytes; uploads as files=.
import io

from locust import HttpUser, constant, task


class Feed(HttpUser):
    wait_time = constant(0.5)

    @task
    def lines(self):
        r = self.client.post("/echo", data="a\nb\nc", stream=True, name="lines")
        got = [line for line in r.iter_lines(decode_unicode=True) if line]
        assert got == ["a", "b", "c"], got

    @task
    def chunks(self):
        r = self.client.get("/json", stream=True, name="chunks")
        size = sum(len(c) for c in r.iter_content(chunk_size=4))
        assert size == len(r.content)

    @task
    def upload(self):
        files = {"report": ("r.csv", io.BytesIO(b"a,b\n1,2\n"), "text/csv")}
        r = self.client.post("/echo", files=files, data={"kind": "csv"}, name="upload")
        assert b"r.csv" in r.content
