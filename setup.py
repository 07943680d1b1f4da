"""Package list for setuptools; every other setting is in pyproject.toml.

banks/ stays at the top of the repository (one YAML file per topic) and installs inside the
package as ``bot.shipped_banks``, so a wheel, an sdist and an editable install all carry it.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["bot", "bot.*", "adapters", "adapters.*"]),
        "bot.shipped_banks",
    ],
    package_dir={"bot.shipped_banks": "banks"},
)
