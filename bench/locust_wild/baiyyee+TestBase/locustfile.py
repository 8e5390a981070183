# From github.com/baiyyee/TestBase test/stress/locustfile.py at 1f4363d09ff90a0b6b8b99d33b8db64c30b5e789 (MIT,
# LICENSE beside it): its live code, the file's commented-out earlier examples left out.
### EventHook

from locust.event import EventHook
from locust import HttpUser, task, constant

send_email_notifcation = EventHook()
send_text_notification = EventHook()


def send_email(i, j, req_id, message=None, **kwargs):
    print(f"Sending {message} in Email for the request {req_id}")


def send_sms(i, j, req_id, message=None, **kwargs):
    print(f"Sending {message} in SMS for the request {req_id}")


send_email_notifcation.add_listener(send_email)
send_text_notification.add_listener(send_sms)


class LocustTest(HttpUser):
    wait_time = constant(1)
    host = "https://onlineboutique.dev"

    @task
    def home_page(self):
        with self.client.get("/", catch_response=True, name="T00_HomePage") as response:
            if response.status_code == 200:
                send_email_notifcation.fire(i=1, j=2, req_id=1, message="success")
                send_text_notification.fire(i=1, j=2, req_id=2, message="success")
            else:
                send_email_notifcation.fire(i=1, j=2, req_id=1, message="failed")
                send_text_notification.fire(i=1, j=2, req_id=2, message="failed")

        with self.client.get("/test", catch_response=True, name="T01_FailHomePage") as response:
            if response.status_code == 200:
                send_email_notifcation.fire(i=1, j=2, req_id=3, message="success")
                send_text_notification.fire(i=1, j=2, req_id=4, message="success")
            else:
                send_email_notifcation.fire(i=1, j=2, req_id=3, message="failed")
                send_text_notification.fire(i=1, j=2, req_id=4, message="failed")
