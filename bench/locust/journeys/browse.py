from locust import SequentialTaskSet, task


class Browse(SequentialTaskSet):
    @task
    def home(self):
        self.client.get("/home")

    @task
    def news(self):
        self.client.get("/json", name="news")

    @task
    def leave(self):
        self.interrupt()
