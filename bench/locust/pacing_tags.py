# args: -u 60 -r 60 -t 15s --exclude-tags slow
# Tags select the tasks: the slow one is left out, the rest paced at 0.5 s.
from locust import HttpUser, task, tag, constant_pacing


class Tagged(HttpUser):
    wait_time = constant_pacing(0.5)

    @tag("fast")
    @task(2)
    def quick(self):
        self.client.get("/json", name="quick")

    @tag("slow")
    @task(1)
    def slow(self):
        self.client.get("/sleep?ms=200", name="slow")

    @task(1)
    def untagged(self):
        self.client.get("/", name="plain")
