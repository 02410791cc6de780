"""Actuator shortcuts read over default classes of every kind, against MuJoCo 3.17.

A shortcut inherits its gain/bias/dynamics parameters only from a class written by the same
shortcut or by a compatible <general>; these combinations pin that behaviour down.
"""

import mujoco
import pytest

from engine.compiler import compile_model
from engine.errors import CompileError
from tests.engine.test_compiler import compare

CLASSES = {
  'none': '',
  'pos': '<position kp="5" kv="1"/>',
  'posdr': '<position kp="5" dampratio="0.5" timeconst="0.2"/>',
  'vel': '<velocity kv="3"/>',
  'intv': '<intvelocity kp="4" kv="2"/>',
  'damp': '<damper kv="2" ctrlrange="0 1"/>',
  'cyl': '<cylinder area="2" timeconst="0.5" bias="1 2 3"/>',
  'gen_affine': ('<general gainprm="7 8 9" biasprm="1 2 3" dynprm="4 5 6" dyntype="filter" '
                 'gaintype="affine" biastype="affine"/>'),
  'gen_plain': '<general gainprm="7 8 9" biasprm="1 2 3" dynprm="4 5 6"/>',
  'gen_fe': ('<general gainprm="3" biasprm="0 -3 -1" biastype="affine" dyntype="filterexact" '
             'dynprm="0.2"/>'),
  'mus': '<muscle timeconst="0.02 0.05" range="0.7 1.1" force="10"/>',
  'adh': '<adhesion gain="3" ctrlrange="0 1"/>',
  'mot': '<motor gear="2"/>',
  'adh_gen': '<adhesion gain="3" ctrlrange="0 1"/><general gainprm="4"/>',
  'pos_child': 'CHILD',
  'orient': '<orientation kp="3" kv="0.5" input="quat"/>',
}
ELEMENTS = {
  'motor': '<motor joint="j" class="c"/>',
  'position': '<position joint="j" class="c"/>',
  'velocity': '<velocity joint="j" class="c"/>',
  'intvelocity': '<intvelocity joint="j" class="c"/>',
  'damper': '<damper joint="j" class="c" ctrlrange="0 1"/>',
  'cylinder': '<cylinder joint="j" class="c"/>',
  'muscle': '<muscle joint="j" class="c" lengthrange="0 1"/>',
  'adhesion': '<adhesion body="b" class="c" ctrlrange="0 1"/>',
  'general': '<general joint="j" class="c"/>',
  'orientation': '<orientation joint="jb" class="c"/>',
}
BASE = """<mujoco>
  <default>
    <default class="p"><position kp="9"/>{child}</default>
  </default>
  <worldbody>
    <body name="b"><joint name="j" range="-1 1"/><geom size=".1"/>
      <body><joint name="jb" type="ball"/><geom size=".1"/></body>
    </body>
  </worldbody>
  <actuator>{elem}</actuator>
</mujoco>"""


def _xml(cls, elems, nested):
  if CLASSES[cls] == 'CHILD':
    child = '<default class="c"><velocity kv="2"/></default>'
  else:
    child = f'<default class="c">{CLASSES[cls]}</default>'
  xml = BASE.format(child=child, elem=''.join(ELEMENTS[e] for e in elems))
  if not nested:
    xml = xml.replace('<position kp="9"/>', '')
  return xml


def _check(xml):
  try:
    mujoco.MjModel.from_xml_string(xml)
  except ValueError:
    with pytest.raises(CompileError):
      compile_model(xml=xml)
    return False
  compare(xml=xml)
  return True


@pytest.mark.parametrize('nested', [True, False], ids=['under_position_class', 'under_main'])
@pytest.mark.parametrize('cls', list(CLASSES))
def test_shortcuts_over_class(cls, nested):
  # all shortcuts in one model; one at a time when MuJoCo rejects some of them
  if not _check(_xml(cls, ELEMENTS, nested)):
    for elem in ELEMENTS:
      _check(_xml(cls, [elem], nested))
