# Helpers of the shop's locustfiles: a request's name and a check of its answer.
SEEN = []


def fib_path(n):
    return f"/fib/{n}", "/fib/[n]"


def check_user(response):
    SEEN.append(response.status_code)
    with response as r:
        if "name" not in r.text:
            r.failure("no name in the user record")
