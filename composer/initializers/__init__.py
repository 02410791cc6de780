"""Initializers of episode states."""

from composer.initializers.joints import JointsInitializer as JointsInitializer
from composer.initializers.prop_initializer import PropPlacer as PropPlacer
from composer.initializers.tcp_initializer import (
  ToolCenterPointInitializer as ToolCenterPointInitializer,
)
from composer.initializers.utils import JointStaticIsolator as JointStaticIsolator
