"""Constants shared by Composer entities."""

SENSOR_SITES_GROUP = 4  # geom/site group of sensor sites, hidden in renderings by default
