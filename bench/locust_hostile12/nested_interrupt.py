# Three levels of TaskSets: the deepest interrupts back to the middle, the middle to the user.
from locust import HttpUser, TaskSet, constant, task


class Deep(TaskSet):
    @task
    def deep(self):
        self.client.get("/json", name="deep")
        self.interrupt()


class Middle(TaskSet):
    tasks = {Deep: 2}

    @task
    def middle(self):
        self.client.get("/json", name="middle")

    @task
    def up(self):
        self.client.get("/", name="middle up")
        self.interrupt(reschedule=False)


class Top(HttpUser):
    wait_time = constant(0.1)
    tasks = [Middle]

    @task
    def top(self):
        self.client.get("/", name="top")
