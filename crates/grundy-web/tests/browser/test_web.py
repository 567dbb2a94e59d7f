"""`grundy serve` in a real browser (Debian's chromium driven by Selenium), and its HTTP API.

Run by scripts/test-web.sh (part of the README's test command). The browser tests play whole
games of Nim and of Welter through clicks, compare the hint's numbers with the CLI's --json,
load a sequence plot and read its period label, submit bad input, and save screenshots into
docs/img/web-*.png. GRUNDY_BIN names the binary; CHROMIUM and CHROMEDRIVER the browser.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[4]
GRUNDY = os.environ.get("GRUNDY_BIN", str(ROOT / "target" / "release" / "grundy"))
IMG = ROOT / "docs" / "img"


def grundy_json(*args: str) -> Any:
    out = subprocess.run([GRUNDY, *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    started = time.monotonic()
    proc = subprocess.Popen(
        [GRUNDY, "serve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("grundy serve: http://127.0.0.1:"), line
    url = line.split()[2]
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    # the first page answers promptly after start
    status, _ = request(port, "GET", "/")
    assert status == 200
    print(f"first page {1000 * (time.monotonic() - started):.0f} ms after start")
    yield url, port
    proc.send_signal(2)  # Ctrl-C
    assert proc.wait(timeout=10) == 0
    assert proc.stderr is not None
    assert "stopped" in proc.stderr.read()


def request(
    port: int, method: str, path: str, body: Any = None, host: str | None = None
) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    headers = {"Host": host or f"127.0.0.1:{port}", "Content-Type": "application/json"}
    conn.request(method, path, body=data, headers=headers)
    res = conn.getresponse()
    text = res.read().decode()
    conn.close()
    return res.status, text


# ------------------------------------------------------------------ the API, without a browser


def test_api_cli_answers_exactly_what_the_cli_prints(server: tuple[str, int]) -> None:
    _, port = server
    for args in (
        ["nim", "3", "5", "2"],
        ["welter", "1", "4", "7"],
        ["takebreak", "0.07", "--n", "100", "--no-record"],
        ["subtraction", "--set", "1,3,4", "--sequence", "30"],
        ["young", "5,3,1", "--core", "2"],
        ["play", "nim", "3", "5", "2", "--move", "1 1", "--report"],
        ["cram", "3x3"],
    ):
        status, text = request(port, "POST", "/api/cli", {"args": args})
        assert status == 200, text
        cli = subprocess.run([GRUNDY, *args, "--json"], capture_output=True, text=True).stdout
        assert text == cli, args


def test_api_refuses_what_it_must(server: tuple[str, int]) -> None:
    _, port = server
    # DNS rebinding: a page served under another name cannot reach us
    status, text = request(port, "GET", "/", host=f"evil.example:{port}")
    assert status == 403 and "Host" in text
    for body, needle in (
        ({"args": ["serve"]}, "serve"),
        ({"args": ["takebreak", "0.07", "--svg", "x.svg"]}, "--svg"),
        ({"args": ["graph", "/etc/passwd"]}, "name a file"),
        ({"args": ["census", "1"]}, "not a command"),
        ({"args": ["play", "nim", "3"]}, "--report"),
    ):
        status, text = request(port, "POST", "/api/cli", body)
        assert status == 403 and needle in json.loads(text)["error"], (body, text)
    status, text = request(port, "POST", "/api/cli", b"x" * (2 << 20))
    assert status == 413
    status, text = request(port, "GET", "/../../etc/passwd")
    assert status == 404
    # the CLI's own message for bad input, with status 400
    status, text = request(port, "POST", "/api/cli", {"args": ["nim", "3", "x"]})
    assert status == 400
    assert json.loads(text)["error"] == "heap 'x' is not a non-negative whole number"
    # a pasted graph goes to standard input
    graph = json.dumps({"root": "a", "nodes": [{"id": "a", "options": ["b"]}, {"id": "b", "options": []}]})
    status, text = request(port, "POST", "/api/cli", {"args": ["graph", "-"], "stdin": graph})
    assert status == 200 and json.loads(text)["grundy_value"] == 1


# ------------------------------------------------------------------ the page in chromium


def find(*names: str) -> str | None:
    for n in names:
        path = shutil.which(n)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser(server: tuple[str, int]) -> Iterator[Any]:
    chromium = os.environ.get("CHROMIUM") or find("chromium", "chromium-browser")
    driver_path = os.environ.get("CHROMEDRIVER") or find("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("no chromium/chromedriver installed (apt-get install chromium chromium-driver)")
    # with a browser installed the browser tests run: a missing client is a failure, not a skip
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        pytest.fail(f"chromium is installed but Selenium is not importable ({e}): pip install selenium")
    profile = tempfile.mkdtemp(prefix="grundy-chromium-")
    opts = Options()
    opts.binary_location = chromium
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
    ):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
    driver.implicitly_wait(0)
    driver.get(server[0])
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait_for(driver: Any, condition: Any, timeout: float = 20.0) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition)


def by_id(driver: Any, ident: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, ident)


def css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def start_game(driver: Any, family: str, position: str, **fields: str) -> None:
    from selenium.webdriver.support.ui import Select

    by_id(driver, "tab-play").click()
    Select(by_id(driver, "family")).select_by_value(family)
    box = by_id(driver, "position")
    box.clear()
    box.send_keys(position)
    for ident, value in fields.items():
        field = by_id(driver, ident)
        field.clear()
        field.send_keys(value)
    before = by_id(driver, "transcript").get_attribute("value")
    by_id(driver, "newgame").click()
    wait_for(driver, lambda d: by_id(d, "transcript").get_attribute("value") != before
             and by_id(d, "transcript").get_attribute("value").startswith("start"))


def hint_rows(driver: Any) -> list[dict[str, str]]:
    rows = []
    for tr in css(driver, "#options tbody tr[data-move]"):
        tds = tr.find_elements("css selector", "td")
        rows.append({"move": tr.get_attribute("data-move"), "after": tds[1].text,
                     "value": tds[2].text, "good": "good" in (tr.get_attribute("class") or "")})
    return rows


def play_to_the_end(driver: Any, click_for_move: Any) -> str:
    """Follow the hint's winning move with a click until the game ends; the status line."""
    if "hidden" in (by_id(driver, "hintbox").get_attribute("class") or ""):
        by_id(driver, "hint").click()
    for _ in range(60):
        status = by_id(driver, "status").text
        if "win" in status or "lose" in status:
            return status
        good = [r for r in hint_rows(driver) if r["good"]]
        assert good, "the hint shows a winning move from an N-position"
        count = len(by_id(driver, "transcript").get_attribute("value").splitlines())
        click_for_move(good[0]["move"])
        # our move and the engine's answer (or the end)
        wait_for(driver, lambda d: len(by_id(d, "transcript").get_attribute("value").splitlines())
                 >= count + 2 or "win" in by_id(d, "status").text)
    raise AssertionError("the game did not end")


def test_a_whole_game_of_nim_by_clicks_and_the_hint_agrees_with_the_cli(browser: Any) -> None:
    start_game(browser, "nim", "3 5 2")
    by_id(browser, "hint").click()
    rows = hint_rows(browser)
    cli = grundy_json("play", "nim", "3", "5", "2", "--report")
    assert [(r["move"], r["after"], int(r["value"])) for r in rows] == [
        (o["move"], o["after"], o["value"]) for o in cli["options"]
    ]
    assert by_id(browser, "evaluation").text.startswith(
        f"value {grundy_json('nim', '3', '5', '2')['grundy_value']}"
    )
    assert "3 ⊕ 5 ⊕ 2 = 4" in by_id(browser, "explanation").text
    IMG.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(IMG / "web-play-nim.png"))

    def click(move: str) -> None:
        heap, to = move.split()
        css(browser, f'.token[data-heap="{heap}"][data-to="{to}"]')[0].click()

    status = play_to_the_end(browser, click)
    assert "you win" in status
    transcript = by_id(browser, "transcript").get_attribute("value")
    assert transcript.splitlines()[-1].startswith("end: You made the last move")


def test_a_whole_game_of_welter_on_its_young_diagram(browser: Any) -> None:
    start_game(browser, "welter", "1 4 7 9")
    assert grundy_json("welter", "1", "4", "7", "9")["grundy_value"] != 0
    # every box shows its hook length, as `grundy young` computes them
    hooks = grundy_json("young", "--from-beta", "1", "4", "7", "9")["hooks"]
    shown = [[int(c.text) for c in css(browser, f'.young .cell[data-row="{r}"]')] for r in range(len(hooks))]
    assert shown == hooks
    browser.save_screenshot(str(IMG / "web-play-welter.png"))

    def click(move: str) -> None:
        css(browser, f'.young .cell[data-move="{move}"]')[0].click()

    assert "you win" in play_to_the_end(browser, click)


def test_cram_and_chomp_boards_take_clicks(browser: Any) -> None:
    start_game(browser, "cram", "3x4")
    css(browser, '.cell[data-row="0"][data-col="0"]')[0].click()
    css(browser, '.cell[data-row="0"][data-col="1"]')[0].click()
    wait_for(browser, lambda d: "2. engine" in by_id(d, "transcript").get_attribute("value"))
    assert "1. you: 0 0 0 1" in by_id(browser, "transcript").get_attribute("value")
    browser.save_screenshot(str(IMG / "web-play-cram.png"))
    start_game(browser, "chomp", "4x5")
    css(browser, '.cell[data-row="3"][data-col="4"]')[0].click()
    wait_for(browser, lambda d: "2. engine" in by_id(d, "transcript").get_attribute("value"))
    browser.save_screenshot(str(IMG / "web-play-chomp.png"))


def hint_matches_the_cli(driver: Any, *cli_args: str) -> dict[str, Any]:
    """Open the hint; its moves and positions after them are the CLI report's. The report."""
    if "hidden" in (by_id(driver, "hintbox").get_attribute("class") or ""):
        by_id(driver, "hint").click()
    wait_for(driver, lambda d: hint_rows(d))
    cli = grundy_json("play", *cli_args, "--report")
    assert [(r["move"], r["after"]) for r in hint_rows(driver)] == [
        (o["move"], o["after"]) for o in cli["options"]
    ]
    return cli


def test_subtraction_take_and_break_graph_and_multiplayer_pages(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select

    start_game(browser, "subtraction", "7 4", subset="1,3,4")
    cli = hint_matches_the_cli(browser, "subtraction", "--set", "1,3,4", "7", "4")
    assert [int(r["value"]) for r in hint_rows(browser)] == [o["value"] for o in cli["options"]]
    browser.save_screenshot(str(IMG / "web-play-subtraction.png"))

    start_game(browser, "takebreak", "5 3", code="0.77")
    cli = hint_matches_the_cli(browser, "takebreak:0.77", "5", "3")
    assert [int(r["value"]) for r in hint_rows(browser)] == [o["value"] for o in cli["options"]]
    browser.save_screenshot(str(IMG / "web-play-takebreak.png"))

    by_id(browser, "tab-play").click()
    Select(by_id(browser, "family")).select_by_value("graph")
    graph = tmp_path / "graph.json"
    graph.write_text(by_id(browser, "graphtext").get_attribute("value"))
    start_game(browser, "graph", "")
    hint_matches_the_cli(browser, "graph", str(graph))
    browser.save_screenshot(str(IMG / "web-play-graph.png"))

    # multiplayer with preferences: the page's order is the CLI's --order
    start_game(browser, "multiplayer", "1 2 3", players="3", order="0,2,1")
    assert "--order 0,2,1" in by_id(browser, "transcript").get_attribute("value")
    hint_matches_the_cli(browser, "multiplayer", "--players", "3", "--order", "0,2,1", "1", "2", "3")
    browser.save_screenshot(str(IMG / "web-play-multiplayer.png"))


def test_wythoff_common_divisor_nim_and_the_outcome_table(browser: Any) -> None:
    start_game(browser, "wythoff", "4 8")
    cli = hint_matches_the_cli(browser, "wythoff", "4", "8")
    assert any(o["move"].startswith("both") for o in cli["options"])
    browser.save_screenshot(str(IMG / "web-play-wythoff.png"))
    start_game(browser, "cdnim", "6 3 2")
    hint_matches_the_cli(browser, "cdnim", "6", "3", "2")
    browser.save_screenshot(str(IMG / "web-play-cdnim.png"))
    # the subtraction game's outcome table: P exactly where the CLI's value is 0
    by_id(browser, "tab-explore").click()
    by_id(browser, "sgo").click()
    wait_for(browser, lambda d: css(d, "#soutcomes span"))
    cells = css(browser, "#soutcomes span")
    seq = grundy_json("subtraction", "--set", "1,3,4", "--sequence", "40")
    values = seq["values"]
    shown_p = [i for i, c in enumerate(cells) if "P" in (c.get_attribute("class") or "").split()]
    assert shown_p == [i for i, v in enumerate(values[: len(cells)]) if v == 0]
    browser.execute_script("arguments[0].scrollIntoView()", by_id(browser, "sgo"))
    browser.save_screenshot(str(IMG / "web-explore-subtraction.png"))


def test_the_game_graph_of_a_heap_position(browser: Any) -> None:
    from selenium.webdriver.support.ui import Select

    by_id(browser, "tab-explore").click()
    Select(by_id(browser, "pgfamily")).select_by_value("nim")
    box = by_id(browser, "pgposition")
    box.clear()
    box.send_keys("2 3")
    by_id(browser, "pggo").click()
    wait_for(browser, lambda d: css(d, "#pgraphbox svg"))
    labels = sorted(t.text for t in css(browser, "#pgraphbox svg text"))

    def nim_sum(heaps: str) -> int:
        v = 0
        for h in heaps.split():
            v ^= int(h)
        return v

    ids = ["0", "1", "1 1", "1 2", "1 3", "2", "2 2", "2 3", "3"]
    assert labels == sorted(f"{i} G={nim_sum(i)}" for i in ids), labels
    # P-positions are marked: as many orange boxes as nodes of value 0
    fills = [r.get_attribute("fill") for r in css(browser, "#pgraphbox svg rect")]
    assert fills.count("#fde7c8") == sum(1 for i in ids if nim_sum(i) == 0)
    browser.execute_script("arguments[0].scrollIntoView()", by_id(browser, "pggo"))
    browser.save_screenshot(str(IMG / "web-explore-graph.png"))
    # a take-and-break heap: Dawson's Kayles (0.07) from 6, G(6) = 3
    Select(by_id(browser, "pgfamily")).select_by_value("takebreak")
    box.clear()
    box.send_keys("6")
    by_id(browser, "pggo").click()
    wait_for(browser, lambda d: any(t.text == "6 G=3" for t in css(d, "#pgraphbox svg text")))
    # too large a position: the program's refusal
    Select(by_id(browser, "pgfamily")).select_by_value("nim")
    box.clear()
    box.send_keys("9 9 9")
    by_id(browser, "pggo").click()
    wait_for(browser, lambda d: "more than 200 positions" in by_id(d, "pgmessage").text)


def test_bad_input_shows_the_programs_message(browser: Any) -> None:
    from selenium.webdriver.support.ui import Select

    by_id(browser, "tab-play").click()
    Select(by_id(browser, "family")).select_by_value("nim")
    box = by_id(browser, "position")
    box.clear()
    box.send_keys("3 x 2")
    by_id(browser, "newgame").click()
    wait_for(browser, lambda d: "not a non-negative whole number" in by_id(d, "message").text)
    # an illegal move typed during a game
    start_game(browser, "nim", "3 5")
    by_id(browser, "movetext").send_keys("1 9\n")
    wait_for(browser, lambda d: "Illegal move: heap 1 has 5 tokens" in by_id(d, "message").text)


def test_a_sequence_plot_with_its_period_and_the_young_diagram(browser: Any) -> None:
    by_id(browser, "tab-explore").click()
    code = by_id(browser, "seqcode")
    code.clear()
    code.send_keys("0.07")
    n = by_id(browser, "seqn")
    n.clear()
    n.send_keys("300")
    by_id(browser, "seqgo").click()
    wait_for(browser, lambda d: "period" in by_id(d, "period-label").text)
    label = by_id(browser, "period-label").text
    cli = grundy_json("takebreak", "0.07", "--n", "300", "--no-record")["period"]
    assert label == f"preperiod {cli['preperiod']}, period {cli['period']}"
    assert label == "preperiod 53, period 34"
    assert "Certified" in by_id(browser, "certificate").text
    assert css(browser, "#seqplot svg")
    # the rare values are the sparse engine's rare classes, as `takebreak --json` reports them
    split = grundy_json("takebreak", "0.07", "--n", "300", "--no-record", "--rare-classes")["rare_common"]
    shown = [[td.text for td in tr.find_elements("css selector", "td")]
             for tr in css(browser, "#rare-table tr")[1:]]
    assert shown == [[str(c["value"]), c["heaps"], str(c["count"]),
                      ", ".join(map(str, c["positions"])) + (", …" if c["count"] > len(c["positions"]) else "")]
                     for c in split["rare"]]
    assert f"{split['rare_positions']} heap sizes in {split['rare_class_count']} rare classes" in by_id(
        browser, "rare-summary").text
    browser.save_screenshot(str(IMG / "web-explore-sequence.png"))
    # a refusal, not a frozen page
    code.clear()
    code.send_keys("0.7#")
    by_id(browser, "seqgo").click()
    wait_for(browser, lambda d: by_id(d, "seqmessage").text != "")
    parts = by_id(browser, "parts")
    parts.clear()
    parts.send_keys("5,3,3,1")
    by_id(browser, "ygo").click()
    wait_for(browser, lambda d: "core" in by_id(d, "yfacts").text)
    assert "2-core: " in by_id(browser, "yfacts").text
    by_id(browser, "ygraph").click()
    wait_for(browser, lambda d: css(d, "#ygraphbox svg"))
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    browser.save_screenshot(str(IMG / "web-explore-young.png"))


def computations_running(needle: str) -> list[int]:
    """Processes whose command line contains `needle` (Linux /proc)."""
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if needle in (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    found.append(int(d.name))
            except OSError:
                pass
    return found


def test_a_new_plot_abandons_the_old_computation(browser: Any) -> None:
    """Asking again cancels the request in flight: the server kills its computation."""
    by_id(browser, "tab-explore").click()
    code, n = by_id(browser, "seqcode"), by_id(browser, "seqn")
    code.clear()
    code.send_keys("0.6")
    n.clear()
    n.send_keys("100000000")
    needle = "takebreak 0.6 --n 100000000"
    by_id(browser, "seqgo").click()
    wait_for(browser, lambda d: computations_running(needle), timeout=10)
    code.clear()
    code.send_keys("0.07")
    n.clear()
    n.send_keys("300")
    by_id(browser, "seqgo").click()
    wait_for(browser, lambda d: by_id(d, "period-label").text == "preperiod 53, period 34")
    # the abandoned computation is stopped long before its 10 s budget
    started = time.monotonic()
    wait_for(browser, lambda d: not computations_running(needle), timeout=5)
    assert time.monotonic() - started < 5
    assert by_id(browser, "seqmessage").text == ""


def test_a_loopy_graph_with_its_values(browser: Any) -> None:
    by_id(browser, "tab-explore").click()
    by_id(browser, "xgo").click()
    wait_for(browser, lambda d: css(d, "#xgraphbox svg"))
    labels = [t.text for t in css(browser, "#xgraphbox svg text")]
    cli = grundy_json("graph", str(ROOT / "docs" / "examples" / "loopy-graph.json"), "--loopy", "--all")
    spin = next(n for n in cli["nodes"] if n["id"] == "spin")["grundy_value"]
    assert f"spin G=∞{{{','.join(map(str, spin['k']))}}}" in labels, labels


def test_a_computation_over_its_budget_is_stopped_and_refused() -> None:
    proc = subprocess.Popen(
        [GRUNDY, "serve", "--budget", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline().split()[2].rstrip("/").rsplit(":", 1)[1])
        started = time.monotonic()
        status, text = request(
            port, "POST", "/api/cli", {"args": ["takebreak", "0.6", "--n", "1000000000", "--no-record"]}
        )
        took = time.monotonic() - started
        assert status == 503, text
        assert "time budget of 1 s" in json.loads(text)["error"]
        assert took < 5, took
        # and the server still answers
        assert request(port, "GET", "/api/health")[0] == 200
    finally:
        proc.send_signal(2)
        proc.wait(timeout=10)
