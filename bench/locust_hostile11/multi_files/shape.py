# The shape of the run, kept apart from the users: 2 users for 3 s, then 3 for 3 s.
from locust import LoadTestShape


class TwoSteps(LoadTestShape):
    def tick(self):
        t = self.get_run_time()
        if t < 3:
            return (2, 2)
        if t < 6:
            return (3, 3)
        return None
