# The journeys of the shop: each a task set of its own module, gathered here.
from .browse import Browse
from .checkout import Checkout

__all__ = ["Browse", "Checkout"]
