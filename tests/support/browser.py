"""A real headless Chromium for the dashboard's tests: Debian's ``chromium`` driven by
Selenium through ``chromium-driver`` (the same version, so nothing is downloaded), its
console errors, and a screenshot of every page loaded, kept under test-artifacts/."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
ARTIFACTS = Path(os.environ.get("QUIZBOT_TEST_ARTIFACTS", "test-artifacts")) / "dashboard"
os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager: never download anything


def browser(language: str):  # type: ignore[no-untyped-def]
    """A headless Chromium whose language (and Accept-Language) is ``language``, at a
    phone's width. Selenium is imported here: without Chromium the tests skip."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=412,900"):
        options.add_argument(flag)
    options.add_argument(f"--lang={language}")
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(str(DRIVER)))


async def load(driver, url: str, shot: str):  # type: ignore[no-untyped-def]
    """Load a page (off the event loop, which serves it); its console errors; a screenshot."""
    await asyncio.to_thread(driver.get, url)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(driver.save_screenshot, str(ARTIFACTS / f"{shot}.png"))
    logs = await asyncio.to_thread(driver.get_log, "browser")
    return [entry["message"] for entry in logs if entry["level"] == "SEVERE"]


def texts(driver, selector: str) -> list[str]:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def labels_outside(driver) -> list[str]:  # type: ignore[no-untyped-def]
    """The texts of every chart drawn, even in part, outside their chart's box."""
    found: list[str] = driver.execute_script(
        """
        const out = [];
        for (const svg of document.querySelectorAll('svg.chart')) {
          const box = svg.getBoundingClientRect();
          for (const text of svg.querySelectorAll('text')) {
            const r = text.getBoundingClientRect();
            if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(text.textContent);
          }
        }
        return out;
        """
    )
    return found
