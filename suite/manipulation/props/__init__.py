"""Props of the manipulation tasks (dm_control.manipulation.props)."""

from suite.manipulation.props.primitive import Box as Box
from suite.manipulation.props.primitive import BoxWithSites as BoxWithSites
from suite.manipulation.props.primitive import Capsule as Capsule
from suite.manipulation.props.primitive import Cylinder as Cylinder
from suite.manipulation.props.primitive import Ellipsoid as Ellipsoid
from suite.manipulation.props.primitive import Primitive as Primitive
from suite.manipulation.props.primitive import Sphere as Sphere
