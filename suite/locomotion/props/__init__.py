"""Props of the locomotion tasks (dm_control.locomotion.props)."""

from suite.locomotion.props.target_sphere import TargetSphere as TargetSphere
from suite.locomotion.props.target_sphere import TargetSphereTwoTouch as TargetSphereTwoTouch
