"""Small props library: primitives and a position detector (dm_control's entities.props)."""

from composer.props.position_detector import PositionDetector as PositionDetector
from composer.props.primitive import Primitive as Primitive
