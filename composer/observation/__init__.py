"""The observation system: observables and the Updater that buffers and delays them."""

from composer.observation import observable as observable
from composer.observation.updater import DEFAULT_BUFFER_SIZE as DEFAULT_BUFFER_SIZE
from composer.observation.updater import DEFAULT_DELAY as DEFAULT_DELAY
from composer.observation.updater import DEFAULT_UPDATE_INTERVAL as DEFAULT_UPDATE_INTERVAL
from composer.observation.updater import Updater as Updater
