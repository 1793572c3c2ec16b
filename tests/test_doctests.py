"""Run the docstring examples of every pyanalyzer module as tests."""

import doctest
import importlib
import pkgutil

import pytest

import pyanalyzer

#: Every module, in the subpackages too (iter_modules alone saw only the top level).
MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(pyanalyzer.__path__, "pyanalyzer.")
    if name != "pyanalyzer.__main__"
)


@pytest.mark.parametrize("name", ["pyanalyzer", *MODULES])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
