"""The evaluation tests use the models' fixtures: the fixture corpus mined once per session, and a
tiny model to evaluate."""

from ..models.conftest import mined, tiny_model_dir, tokenizer  # noqa: F401 (fixtures)
