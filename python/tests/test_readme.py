"""The README's Python example runs as written (from the repository root)."""

import re
import subprocess
import sys

from conftest import ROOT


def test_the_readme_example_runs():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Python", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.S)
    assert code, "no python block in the README's Python section"
    out = subprocess.run([sys.executable, "-c", code[0]], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
