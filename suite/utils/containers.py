"""TaggedTasks: the registry of a domain's task constructors, each with tags such as
'benchmarking' or 'hard' (dm_control's `utils.containers`)."""

import collections


class TaggedTasks(collections.abc.Mapping):
  """An ordered mapping from task names to constructors, with tags.

  Register a constructor with `@SUITE.add('benchmarking', 'easy')`; its function name is the
  task name. `SUITE.tagged('hard')` lists the names of the tasks that carry every given tag.
  """

  def __init__(self, allow_overriding_keys: bool = False):
    self._tasks = collections.OrderedDict()
    self._tags = collections.defaultdict(dict)  # tag -> {task name: None}, ordered
    self.allow_overriding_keys = allow_overriding_keys  # public, as dm_control's

  def add(self, *tags):
    """Decorator registering a task constructor under its function name, with `tags`."""

    def wrap(factory):
      name = factory.__name__
      if name in self._tasks and not self.allow_overriding_keys:
        raise ValueError(f"Task {name!r} is already registered.")
      self._tasks[name] = factory
      for tag in tags:
        self._tags[tag][name] = None
      return factory

    return wrap

  def tagged(self, *tags) -> list:
    """Names of the tasks that have every one of `tags` (none: an empty list)."""
    if not tags:
      return []
    return [name for name in self._tasks if all(name in self._tags.get(t, ()) for t in tags)]

  def tags(self) -> list:
    """Every tag used so far."""
    return list(self._tags)

  def __getitem__(self, name):
    return self._tasks[name]

  def __iter__(self):
    return iter(self._tasks)

  def __len__(self):
    return len(self._tasks)

  def __repr__(self):
    return f"TaggedTasks({', '.join(self._tasks)})"
