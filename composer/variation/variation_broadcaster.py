"""Sharing one variation value among several callers per round."""

import collections
import weakref

from composer.variation import base
from composer.variation.variation_values import evaluate


class VariationBroadcaster:
  """Hands out proxies of a variation that all return the same value in a round.

  A round starts when a proxy with no pending value is called: the wrapped variation is
  evaluated once and the value queued for every proxy.
  """

  def __init__(self, wrapped_variation):
    self._wrapped_variation = wrapped_variation
    self._cached_values = weakref.WeakKeyDictionary()

  def get_proxy(self):
    proxy = _BroadcastedValueProxy(self)
    self._cached_values[proxy] = collections.deque()
    return proxy

  def _get_value(self, proxy, random_state):
    pending = self._cached_values[proxy]
    if not pending:
      value = evaluate(self._wrapped_variation, None, None, random_state)
      for queue in self._cached_values.values():
        queue.append(value)
    return pending.popleft()


class _BroadcastedValueProxy(base.Variation):
  def __init__(self, broadcaster):
    self._broadcaster = broadcaster

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    return self._broadcaster._get_value(self, random_state)
