"""Observable classes (dm_control's composer.observation.observable)."""

from composer.observation.observable.base import AGGREGATORS as AGGREGATORS
from composer.observation.observable.base import Generic as Generic
from composer.observation.observable.base import MujocoCamera as MujocoCamera
from composer.observation.observable.base import MujocoFeature as MujocoFeature
from composer.observation.observable.base import Observable as Observable
from composer.observation.observable.base import PerPhysics as PerPhysics
from composer.observation.observable.mjcf import BoundAttribute as BoundAttribute
from composer.observation.observable.mjcf import MJCFCamera as MJCFCamera
from composer.observation.observable.mjcf import MJCFFeature as MJCFFeature
