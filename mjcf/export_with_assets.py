"""Writes a model and its asset files to a directory, or to a zip archive."""

import os
import posixpath
import zipfile


def _files(mjcf_model, xml_name, precision, zero_threshold):
  """{file name: bytes} of the model's XML and of every asset file it uses."""
  files = mjcf_model.get_assets()
  files[xml_name] = mjcf_model.to_xml_string(
    precision=precision, zero_threshold=zero_threshold
  ).encode()
  return files


def export_with_assets(
  mjcf_model, out_dir, out_file_name=None, *, precision=17, zero_threshold=0.0
):
  """Saves `mjcf_model` as XML in `out_dir` with every asset file it uses next to it.

  The XML names asset files as `get_assets()` does, so the directory loads on its own
  (`engine.MjModel.from_xml_path(os.path.join(out_dir, out_file_name))`). An asset name with
  '/' in it (an `mjcf.Asset` made with such a prefix) is written in the matching
  subdirectory, where the XML looks for it.

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
    out_file_name = mjcf_model.model + ".xml"
  elif not out_file_name.lower().endswith(".xml"):
    raise ValueError(
      f"If `out_file_name` is specified it must end with '.xml': got {out_file_name}"
    )
  files = _files(mjcf_model, out_file_name, precision, zero_threshold)
  os.makedirs(out_dir, exist_ok=True)
  for name, contents in files.items():
    path = os.path.join(out_dir, *name.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
      f.write(contents)


def export_with_assets_as_zip(
  mjcf_model, out_dir, model_name=None, *, precision=17, zero_threshold=0.0
):
  """Saves `mjcf_model` and its asset files as `<out_dir>/<model_name>.zip`.

  The archive holds one folder, `model_name`, with the XML (`model_name.xml`) and the asset
  files named as the XML names them, as dm_control lays it out; `mjcf.from_zip` reads it back.

  Args:
    mjcf_model: the RootElement to save.
    out_dir: destination directory (created if missing).
    model_name: name of the archive, of its folder and of the XML file; default the model's
      name.
    precision: significant digits of real numbers.
    zero_threshold: reals smaller in magnitude are written as 0.

  Returns:
    The path of the zip file.
  """
  if model_name is None:
    model_name = mjcf_model.model
  files = _files(mjcf_model, model_name + ".xml", precision, zero_threshold)
  os.makedirs(out_dir, exist_ok=True)
  zip_path = os.path.join(out_dir, model_name + ".zip")
  with zipfile.ZipFile(zip_path, "w") as archive:
    for name, contents in files.items():
      archive.writestr(posixpath.join(model_name, name), contents)
  return zip_path
