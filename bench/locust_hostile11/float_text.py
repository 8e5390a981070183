# Numbers in names as Python writes them: str() of floats from literals and divisions, ints, rounding.
from locust import HttpUser, constant, task


class Numbers(HttpUser):
    wait_time = constant(0.2)

    @task
    def names(self):
        half = 1 / 2
        whole = 4 / 2
        self.client.get("/", name=f"div {whole} {half} {6 // 3}")
        self.client.get("/", name="lit " + str(1.0) + " " + str(3) + " " + str(2.50))
        self.client.get("/", name=f"mix {1.0 * 3} {2 + 0.0} {round(2.0)} {round(2.567, 1)} {float(7)}")
        self.client.get("/", name=f"fmt {'%s' % 5.0} {'%d|%.1f' % (5.0, 2)} {int(5.0)} {abs(-2.0)}")
        # Floats out of calls: max of an int and a float, a sum of floats (Python: 2.0 1.0).
        self.client.get("/", name=f"left {max(1, 2.0)} {sum([0.5, 0.5])}")
