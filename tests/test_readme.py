"""The README's commands and example are the ones CI runs and the code computes."""

import doctest
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def readme_commands() -> list[str]:
    first_block = re.search(r"```bash\n(.*?)```", README, re.S).group(1)
    return [line for line in first_block.splitlines() if line.strip()]


def test_first_screen_has_two_commands():
    main_job, tests = readme_commands()
    assert main_job.endswith("python -m experiments all")
    assert tests.endswith("python -m pytest")
    assert README.index("```bash") < 1500  # on the first screen


def _requirement_names(requirements, extras, project):
    """The distributions ``requirements`` name, following this project's own extras."""
    names = set()
    for requirement in requirements:
        name = re.match(r"[A-Za-z0-9._-]+", requirement).group(0).lower()
        if name != project["name"]:
            names.add(name)
            continue
        for extra in re.search(r"\[(.*)\]", requirement).group(1).split(","):
            names |= _requirement_names(extras[extra.strip()], extras, project)
    return names


def test_the_reproduction_installs_the_locked_versions():
    import tomllib

    main_job = readme_commands()[0]
    assert main_job.startswith(
        'python3 -m venv .venv && .venv/bin/pip install -r experiments.lock -e ".[experiments]"'
    )
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needed = _requirement_names(
        [*project["dependencies"], "cenmcc[experiments]"], project["optional-dependencies"], project
    )
    lines = [
        line
        for line in (ROOT / "experiments.lock").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    pinned = {}
    for line in lines:
        name, version = re.fullmatch(r"([A-Za-z0-9._-]+)==([0-9][0-9A-Za-z.+]*)", line).groups()
        pinned[name.lower()] = version
    assert needed <= pinned.keys(), needed - pinned.keys()
    assert all(">=" in d for d in project["dependencies"])  # pip install cenmcc keeps ranges


def test_the_first_screen_says_which_claims_need_r_and_how_to_install_it():
    from paper_checks.registry import REGISTRY

    first = README[: README.index("## Using the metrics")]
    assert "apt-get install --no-install-recommends r-base-core r-cran-proc" in first
    needs_r = [r.id for r in REGISTRY if r.requires == "Rscript"]
    assert len(needs_r) == 6
    for record_id in needs_r:
        assert f"`{record_id}`" in first


def test_ci_installs_and_tests_as_the_readme_says():
    ci = (ROOT / ".ci" / "run").read_text()
    install, test = readme_commands()[1].rsplit(" && ", 1)
    assert install in ci
    assert test in ci


@functools.cache
def readme_examples() -> tuple[doctest.DocTest, doctest.DocTestRunner]:
    """The README's examples, run once, with what they defined kept in ``test.globs``."""
    examples = "\n".join(re.findall(r"```python\n(.*?)```", README, re.S))
    test = doctest.DocTestParser().get_doctest(examples, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, clear_globs=False)
    return test, runner


def test_readme_example_runs():
    test, runner = readme_examples()
    assert test.examples, "the README has no example"
    assert runner.failures == 0


#: The figure of the README's report, drawn by ``report.plot()`` of its example.
REPORT_FIGURE = ROOT / "figures" / "report" / "digits.png"


def test_the_readme_figure_is_the_plot_of_its_report():
    """Regenerate with ``CENMCC_WRITE_README=1 python -m pytest tests/test_readme.py``."""
    import io
    import os

    from matplotlib.image import imread

    from cenmcc.runtime.files import save_figure
    from cenmcc.runtime.staging import staged_directory

    figure = readme_examples()[0].globs["report"].plot()
    if os.environ.get("CENMCC_WRITE_README"):  # an output folder, as the experiments write
        with staged_directory(REPORT_FIGURE.parent, writes=[REPORT_FIGURE.name]) as stage:
            save_figure(figure, stage / REPORT_FIGURE.name, dpi=100, bbox_inches="tight")
    assert f"]({REPORT_FIGURE.relative_to(ROOT).as_posix()})" in README
    drawn = io.BytesIO()
    figure.savefig(drawn, format="png", dpi=100, bbox_inches="tight")
    drawn.seek(0)
    assert imread(REPORT_FIGURE).shape == imread(drawn).shape
    assert len(figure.axes) == 6 + 3 + 1  # the measures, the models and the colour bar


def test_readme_shows_the_benchmark_figures():
    for png in (ROOT / "figures" / "benchmark").glob("*.png"):
        assert f"]({png.relative_to(ROOT).as_posix()})" in README


API_START, API_END = "<!-- api:start -->", "<!-- api:end -->"


def _constant_comment(module, name: str) -> str:
    """The ``#:`` comment above ``name = ...`` (or ``name: ... =``) in the module defining it."""
    import inspect

    lines = inspect.getsource(module).splitlines()
    for i, line in enumerate(lines):
        if re.match(rf"{name}\s*[:=]", line):
            comment = []
            while i and lines[i - 1].startswith("#:"):
                i -= 1
                comment.insert(0, lines[i][2:].strip())
            return " ".join(comment)
    return ""


def _summary(module, name: str) -> str:
    """The first paragraph of a public name's docstring, or of its ``#:`` comment for data."""
    import importlib
    import inspect

    obj = getattr(module, name)
    if inspect.isroutine(obj) or inspect.isclass(obj) or inspect.ismodule(obj):
        text = inspect.getdoc(obj) or ""
    else:
        for candidate in [module.__name__] + [
            f"{module.__name__}.{m}" for m in ("registry", "tmcc", "engine")
        ]:
            try:
                text = _constant_comment(importlib.import_module(candidate), name)
            except ModuleNotFoundError:
                continue
            if text:
                break
    first = " ".join(text.strip().split("\n\n")[0].split())
    first = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", first).replace("``", "`")
    return first.rstrip(".") + "."


def api_reference() -> str:
    """The README's reference: every name of ``cenmcc.__all__`` and ``cenmcc.simulation.__all__``
    with the first sentence of its docstring."""
    import cenmcc
    import cenmcc.simulation

    lines = [API_START]
    for module in (cenmcc, cenmcc.simulation):
        lines += ["", f"`{module.__name__}`:", ""]
        lines += [f"- `{name}`: {_summary(module, name)}" for name in module.__all__]
    return "\n".join([*lines, "", API_END])


def test_the_readme_reference_is_the_docstrings():
    """Regenerate with ``CENMCC_WRITE_README=1 python -m pytest tests/test_readme.py``."""
    import os

    expected = api_reference()
    current = re.search(re.escape(API_START) + ".*?" + re.escape(API_END), README, re.S)
    if os.environ.get("CENMCC_WRITE_README") and current:
        (ROOT / "README.md").write_text(README.replace(current.group(0), expected))
        return
    assert current, "the README has no reference section"
    assert current.group(0) == expected
    assert all(summary.strip() != "." for summary in expected.split(": ")[1:])
