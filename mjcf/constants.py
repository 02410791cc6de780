"""Names and separators used throughout the object model."""

# joins namescope names into identifiers: 'arena/creature/leg'
PREFIX_SEPARATOR = "/"
# replaces '/' in identifiers read from XML when escape_separators=True
PREFIX_SEPARATOR_ESCAPE = "\\"

# the Python name of the XML `class` attribute (a keyword in Python)
DCLASS = "dclass"
CLASS = "class"
CHILDCLASS = "childclass"

WORLDBODY = "worldbody"
BODY = "body"
SITE = "site"
DEFAULT = "default"
FRAME = "frame"

# pseudo-namespaces of a NameScope besides the element namespaces
ATTACHMENT_FRAME = "attachment_frame"
ATTACHED_MODEL = "attached_model"

# name of a RootElement built without one
UNNAMED_MODEL = "unnamed_model"

# longest file name MuJoCo's virtual file system accepts (mjMAXVFSNAME - 1)
MAX_VFS_FILENAME_LENGTH = 998
