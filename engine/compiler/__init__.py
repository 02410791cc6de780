"""The MJCF compiler: MJCF text -> MjModel sizes, arrays and options (plain Python + numpy).

`compile_model(xml=None, path=None, assets=None) -> CompiledModel`; see build.py. The language
definition shared with mjcf/ is `schema.ELEMENTS`.
"""

from engine.compiler.build import CompiledModel as CompiledModel
from engine.compiler.build import compile_model as compile_model
