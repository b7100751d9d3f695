"""The training tests use the models' fixtures: a tiny tokenizer, formatter and models, and the
fixture corpus mined once per session."""

from ..models.conftest import (  # noqa: F401 (fixtures)
    formatter,
    mined,
    tiny_model_dir,
    tiny_template_dir,
    tokenizer,
)
