"""numjoco's PyMJCF: a Python object model of MJCF, built on engine's MJCF schema.

  model = mjcf.RootElement(model='arm')
  body = model.worldbody.add('body', name='upper_arm')
  body.add('joint', name='shoulder', type='ball')
  parent.find('site', 'mount').attach(model)        # names become 'arm/...'
  physics = mjcf.Physics.from_mjcf_model(parent)
  physics.bind(model.find_all('joint')).qpos

Behaviour follows dm_control's PyMJCF (see docs/mjcf.md).
"""

from mjcf import constants as constants
from mjcf import debugging as debugging
from mjcf import traversal_utils as traversal_utils
from mjcf.attribute import Asset as Asset
from mjcf.constants import PREFIX_SEPARATOR as PREFIX_SEPARATOR
from mjcf.element import Element as Element
from mjcf.element import RootElement as RootElement
from mjcf.export_with_assets import export_with_assets as export_with_assets
from mjcf.export_with_assets import export_with_assets_as_zip as export_with_assets_as_zip
from mjcf.parser import from_file as from_file
from mjcf.parser import from_path as from_path
from mjcf.parser import from_xml_string as from_xml_string
from mjcf.parser import from_zip as from_zip
from mjcf.physics import Binding as Binding
from mjcf.physics import Physics as Physics
from mjcf.traversal_utils import commit_defaults as commit_defaults
from mjcf.traversal_utils import get_attachment_frame as get_attachment_frame
from mjcf.traversal_utils import get_frame_freejoint as get_frame_freejoint
from mjcf.traversal_utils import get_frame_joints as get_frame_joints
from mjcf.traversal_utils import get_freejoint as get_freejoint
