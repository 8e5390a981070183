# args: -u 2 -r 2 -t 6s
# A pytest locustfile: no user class, each test function a user of its own that Locust runs again and
# again without a wait, its `session` (or `fastsession`) fixture the user's client on the run's host.
import time

from locust.clients import HttpSession


def test_browse(session):
    session.get("/", name="home")
    with session.get("/json", name="catalog", catch_response=True) as resp:
        if "{" not in resp.text:
            resp.failure("catalog is not JSON")
    # A request error it raises ends this run of the test, as pytest's would; Locust logs it at debug level.
    fetch(session, "/no-such-page").raise_for_status()
    session.get("/never-reached", name="never")


def test_api(fastsession):
    fastsession.get("/json", name="api")
    time.sleep(0.1)


def fetch(session: HttpSession, path):
    return session.get(path, name="stale link")
