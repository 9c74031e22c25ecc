"""Every example in the docstrings of the package runs and gives what it shows."""

import doctest
import inspect

import caissa
import caissa._caissa as native


def docstrings():
    yield "caissa", caissa.__doc__
    yield "caissa.pgn", caissa.pgn.__doc__
    for name, value in vars(caissa.pgn).items():
        if getattr(value, "__module__", None) == "caissa.pgn" and not hasattr(native, name):
            yield f"caissa.pgn.{name}", value.__doc__
    for name, value in vars(native).items():
        if inspect.isclass(value) or callable(value):
            yield name, value.__doc__
            for attr, member in vars(value).items() if inspect.isclass(value) else []:
                yield f"{name}.{attr}", getattr(member, "__doc__", None)


def test_docstring_examples():
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for name, doc in docstrings():
        if not doc or ">>>" not in doc:
            continue
        test = parser.get_doctest(doc, {"caissa": caissa}, name, None, 0)
        examples += len(test.examples)
        runner.run(test)
    assert examples >= 15
    assert runner.summarize(verbose=False).failed == 0


def test_every_public_name_has_a_docstring_and_a_stub():
    stub = open(native.__file__.rsplit("/", 1)[0] + "/_caissa.pyi").read()
    for name, value in vars(native).items():
        if name.startswith("_"):
            continue
        assert name in stub, name
        if inspect.isclass(value) or inspect.isbuiltin(value):
            assert value.__doc__, name
