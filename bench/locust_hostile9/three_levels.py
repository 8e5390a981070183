# An abstract base, a mixin and two levels of users: super() through each, on_stop at the end.
from locust import HttpUser, User, constant, task


class AuditMixin:
    def audit(self, what):
        self.audited = getattr(self, "audited", 0) + 1
        return f"{self.kind} {what}"


class Base(HttpUser):
    abstract = True
    wait_time = constant(0.3)
    kind = "base"

    def on_start(self):
        self.client.get("/", name=f"{self.kind} start")

    def on_stop(self):
        self.client.get("/", name=f"{self.kind} stop")


class Reader(AuditMixin, Base):
    abstract = True
    kind = "reader"

    def on_start(self):
        super().on_start()
        self.client.get("/json", name=self.audit("login"))

    @task
    def read(self):
        self.client.get("/json", name=self.audit("read"))


class Admin(Reader):
    kind = "admin"

    def on_start(self):
        super().on_start()
        self.client.get("/", name=f"admin extra {isinstance(self, User)}")

    @task
    def manage(self):
        self.client.get("/", name=self.audit("manage"))
