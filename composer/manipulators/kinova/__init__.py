"""Kinova's Jaco arm and three-finger hand (dm_control.entities.manipulators.kinova)."""

from composer.manipulators.kinova.jaco_arm import JacoArm as JacoArm
from composer.manipulators.kinova.jaco_hand import JacoHand as JacoHand
