"""The README's commands and example are the ones CI runs and the code computes."""

import doctest
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


def test_readme_example_runs():
    examples = "\n".join(re.findall(r"```python\n(.*?)```", README, re.S))
    test = doctest.DocTestParser().get_doctest(examples, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert test.examples, "the README has no example"
    assert runner.failures == 0


def test_readme_shows_the_benchmark_figures():
    for png in (ROOT / "figures" / "benchmark").glob("*.png"):
        assert f"]({png.relative_to(ROOT).as_posix()})" in README
