"""Composer: build RL environments from entities, tasks and observables (dm_control's names).

arena = composer.Arena()
arena.add_free_entity(creature)
env = composer.Environment(MyTask(arena, creature), time_limit=10, random_state=0)
"""

from composer.arena import Arena as Arena
from composer.constants import SENSOR_SITES_GROUP as SENSOR_SITES_GROUP
from composer.define import cached_property as cached_property
from composer.define import observable as observable
from composer.entity import Entity as Entity
from composer.entity import FreePropObservableMixin as FreePropObservableMixin
from composer.entity import ModelWrapperEntity as ModelWrapperEntity
from composer.entity import Observables as Observables
from composer.environment import HOOK_NAMES as HOOK_NAMES
from composer.environment import Environment as Environment
from composer.environment import EpisodeInitializationError as EpisodeInitializationError
from composer.environment import ObservationPadding as ObservationPadding
from composer.initializer import Initializer as Initializer
from composer.robot import Robot as Robot
from composer.task import NullTask as NullTask
from composer.task import Task as Task
