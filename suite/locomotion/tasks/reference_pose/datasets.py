"""The named clip collections a reference-pose task accepts as `dataset`: `DATASETS`."""

from suite.locomotion.tasks.reference_pose import cmu_subsets

DATASETS = dict(cmu_subsets.CMU_SUBSETS_DICT)
