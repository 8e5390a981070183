# A sequential flow that leaves with interrupt() after its steps, and a TaskSet that schedules its next task.
from locust import HttpUser, SequentialTaskSet, TaskSet, constant, task


class Checkout(SequentialTaskSet):
    @task
    def cart(self):
        self.client.get("/json", name="1 cart")

    @task
    def pay(self):
        self.client.post("/echo", json={"pay": True}, name="2 pay")

    @task
    def done(self):
        self.client.get("/", name="3 done")
        self.interrupt(reschedule=False)


class Browse(TaskSet):
    def on_start(self):
        self.seen = 0

    @task(3)
    def list_items(self):
        self.seen += 1
        self.client.get("/json", name="list")
        if self.seen % 3 == 0:
            self.schedule_task(self.detail, first=True)

    def detail(self):
        self.client.get("/validate?id=1&name=x", name="detail")

    @task
    def leave(self):
        self.interrupt()


class Shopper(HttpUser):
    wait_time = constant(0.2)
    tasks = {Checkout: 1, Browse: 2}
