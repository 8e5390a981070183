# Names formatted every way Python does: f-string specs and !r, % formatting, str.format, step slices.
from locust import HttpUser, constant, task


class Formatter(HttpUser):
    wait_time = constant(0.25)

    @task
    def formats(self):
        n, price, code = 7, 3.14159, "abcdef"
        self.client.get("/", name=f"f {n:03d} {price:>8.2f} {code!r} {n:#x}")
        self.client.get("/", name="pct %05d %s %.1f %r" % (n, code, price, code))
        self.client.get("/", name="fmt {0}-{1:.3f}-{name:^7}|".format(n, price, name="mid"))
        self.client.get("/", name=f"slice {code[::-1]} {code[1:5:2]} {code[-2:]}")
        self.client.get("/", name="{:,}".format(1234567) + " " + "{:.0%}".format(0.256))
