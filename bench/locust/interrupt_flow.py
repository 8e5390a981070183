# args: -u 20 -r 20 -t 12s
# A forum's visitors: a nested task set left with interrupt(reschedule=False) (straight on, no wait)
# after a few pages, a user paced by constant_throughput.
from locust import HttpUser, TaskSet, constant_throughput, task


class Thread(TaskSet):
    def on_start(self):
        self.pages = 0

    @task(3)
    def read(self):
        self.pages += 1
        self.client.get("/json", name="thread page")
        if self.pages >= 3:
            self.interrupt(reschedule=False)

    @task(1)
    def reply(self):
        self.client.post("/echo", json={"text": "+1"}, name="reply")
        self.interrupt()


class Visitor(HttpUser):
    wait_time = constant_throughput(4)
    tasks = {Thread: 2}

    @task
    def front(self):
        self.client.get("/", name="front")
