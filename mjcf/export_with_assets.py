"""Writes a model and its asset files to a directory."""

import os


def export_with_assets(mjcf_model, out_dir, out_file_name=None, *, precision=17,
                       zero_threshold=0.0):
  """Saves `mjcf_model` as XML in `out_dir` with every asset file it uses next to it.

  The XML names asset files as `get_assets()` does, so the directory loads on its own
  (`engine.MjModel.from_xml_path(os.path.join(out_dir, out_file_name))`).

  Args:
    mjcf_model: the RootElement to save.
    out_dir: destination directory (created if missing).
    out_file_name: XML file name; default '<model name>.xml'.
    precision: significant digits of real numbers.
    zero_threshold: reals smaller in magnitude are written as 0.

  Raises:
    ValueError: `out_file_name` does not end in '.xml'.
  """
  if out_file_name is None:
    out_file_name = mjcf_model.model + '.xml'
  elif not out_file_name.lower().endswith('.xml'):
    raise ValueError(f"out_file_name should end in '.xml', got {out_file_name!r}")
  files = {out_file_name: mjcf_model.to_xml_string(precision=precision,
                                                   zero_threshold=zero_threshold)}
  files.update(mjcf_model.get_assets())
  os.makedirs(out_dir, exist_ok=True)
  for name, contents in files.items():
    mode = 'w' if isinstance(contents, str) else 'wb'
    with open(os.path.join(out_dir, name), mode) as f:
      f.write(contents)
