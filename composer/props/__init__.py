"""Small props library: primitives, a position detector and a Duplo brick (dm_control's
entities.props)."""

from composer.props.duplo import Duplo as Duplo
from composer.props.position_detector import PositionDetector as PositionDetector
from composer.props.primitive import Primitive as Primitive
