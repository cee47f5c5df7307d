"""A breadth of pretraining no source states counts as middling: a sparse record is not ranked as if
its model had been pretrained narrowly, and a record that names no regions is read through its
pretraining datasets."""

from agent.query import StructuredQuery
from tests.records import make_record
from tools.candidate import Candidate
from tools.region_fit import generalizability_fit

_QUERY = StructuredQuery(modality=["RGB"])


def _score(**fields: object) -> float:
    return generalizability_fit(Candidate(make_record(**fields)), _QUERY).score


def test_an_unstated_breadth_scores_above_a_narrow_one_and_below_a_broad_one() -> None:
    unstated = _score()
    narrow = _score(pretraining_phases=[{"regions_coverage": ["Netherlands"], "num_images": 500}])
    broad = _score(pretraining_phases=[{"regions_coverage": ["global"], "num_images": 10_000_000}])
    assert narrow < unstated < broad


def test_regions_come_from_the_pretraining_datasets_when_the_record_names_none() -> None:
    # fMoW is global in the dataset table: the model is read as pretrained globally.
    named = _score(pretraining_phases=[{"dataset": "fMoW-RGB"}])
    assert named > _score()
