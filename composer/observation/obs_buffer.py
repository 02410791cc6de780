"""A buffer of timestamped observations that delivers them after their delay.

Times are counted in physics steps. Items whose arrival time (timestamp + delay)
has passed move from the pending queue (sorted by arrival) to the arrived queue,
which keeps the last `buffer_size` items; `read` returns the arrived items.
"""

import bisect
import collections

import numpy as np


class InFlightObservation:
  """One observation: taken at `timestamp`, delivered at `arrival = timestamp + delay`."""

  __slots__ = ("arrival", "timestamp", "delay", "value")

  def __init__(self, timestamp, delay, value):
    self.arrival = timestamp + delay
    self.timestamp = timestamp
    self.delay = delay
    self.value = value

  def __lt__(self, other):
    return self.arrival < other.arrival


def _insert_after_equal_arrivals(queue, item):
  """Inserts `item` into `queue` (sorted by arrival) after the items arriving no later."""
  if not queue or item.arrival >= queue[-1].arrival:
    queue.append(item)
    return
  position = bisect.bisect_right([entry.arrival for entry in queue], item.arrival)
  queue.insert(position, item)


class Buffer:
  """Buffers and delays the readings of one observable."""

  def __init__(
    self, buffer_size, shape, dtype, pad_with_initial_value=False, strip_singleton_buffer_dim=False
  ):
    """`read` returns (buffer_size, *shape), or `shape` when buffer_size is 1 and
    `strip_singleton_buffer_dim`; before enough readings arrived the missing rows are
    zeros, or copies of the first reading with `pad_with_initial_value`."""
    self._buffer_size = buffer_size
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    self._has_buffer_dim = not (strip_singleton_buffer_dim and buffer_size == 1)
    self._buffered_shape = ((buffer_size,) + shape) if self._has_buffer_dim else shape
    self._dtype = dtype
    self._arrived = collections.deque(maxlen=buffer_size)
    if not pad_with_initial_value:
      for _ in range(buffer_size):
        self._arrived.append(InFlightObservation(-np.inf, 0, np.zeros(shape, dtype)))
    self._pending = collections.deque()

  @property
  def shape(self):
    return self._buffered_shape

  @property
  def dtype(self):
    return self._dtype

  def _deliver_until(self, time):
    pending = self._pending
    while pending and pending[0].arrival <= time:
      self._arrived.append(pending.popleft())

  def insert(self, timestamp, delay, value):
    """Adds a reading taken at `timestamp` to deliver after `delay` steps.

    Raises:
      ValueError: `delay` is negative.
    """
    if delay < 0:
      raise ValueError(f"`delay` should not be negative: got {delay!r}")
    value = np.array(value)
    if not self._arrived:  # padding with the first reading
      for _ in range(self._buffer_size):
        self._arrived.append(InFlightObservation(-np.inf, 0, value))
    self._deliver_until(timestamp)
    item = InFlightObservation(timestamp, delay, value)
    if delay == 0:
      self._arrived.append(item)
    else:
      _insert_after_equal_arrivals(self._pending, item)

  def read(self, current_time):
    """The delivered readings at `current_time`, oldest first."""
    self._deliver_until(current_time)
    if not self._has_buffer_dim:
      return np.array(self._arrived[0].value, dtype=self._dtype)
    out = np.empty(self._buffered_shape, dtype=self._dtype)
    for row, item in enumerate(self._arrived):
      out[row] = item.value
    return out

  def drop_unobserved_upcoming_items(self, observation_schedule, read_interval):
    """Removes from `observation_schedule` the readings no `read` would ever return.

    `observation_schedule` is a list (or deque) of (timestamp, delay) planned readings,
    edited in place; reads happen every `read_interval` steps. A planned reading is
    dropped when, in a simulation of the coming reads, it is pushed out of the last
    `buffer_size` delivered items in the same read interval it arrives in, so taking it
    (and drawing its noise) is wasted work.
    """
    planned = sorted(InFlightObservation(t, d, None) for t, d in observation_schedule)
    # Upcoming deliveries in arrival order: the planned readings merged with the pending
    # ones arriving after the earliest planned one (pending first on equal arrivals).
    upcoming = collections.deque()
    existing = list(self._pending)
    for item in reversed(planned):
      while existing and existing[-1].arrival > item.arrival:
        upcoming.appendleft(existing.pop())
      upcoming.appendleft(item)
    first_planned = min(t for t, _ in observation_schedule)
    # dm_control's schedule starts at the read time floor(first / interval) * interval.
    next_read = read_interval * int(first_planned // read_interval)
    delivered = collections.deque()
    while upcoming:
      new_this_read = collections.deque()
      while upcoming and upcoming[0].arrival <= next_read:
        item = upcoming.popleft()
        delivered.append(item)
        new_this_read.append(item)
      while len(delivered) > self._buffer_size:
        stale = delivered.popleft()
        if new_this_read and stale is new_this_read[0]:
          new_this_read.popleft()
          if stale.timestamp >= first_planned:
            observation_schedule.remove((stale.timestamp, stale.delay))
      next_read += read_interval
