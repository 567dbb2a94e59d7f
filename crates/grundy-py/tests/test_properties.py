"""Property tests (hypothesis) of the public API against the CLI: for inputs drawn at random,
every function gives the dict of the CLI's --json for the same input, or refuses it with the
CLI's one-line message (flags named as the keyword). Bounded: a few dozen small examples per
property, derandomized, so the whole file takes seconds and gives the same run every time."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile

import grundy
from conftest import BIN, ROOT, plain
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NO_STATE = ("--no-checkpoint", "--no-record")

# Small and reproducible: every property runs the same few dozen examples each time.
BOUNDED = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# The CLI's flags and the keywords the same value has in Python, for comparing messages.
FLAG_TO_KEYWORD = [("--max-moves", "max_moves"), ("--memory", "memory"), ("--heaps", "heaps")]


def cli(*args: str):
    """`grundy ARGS --json`: ("ok", the JSON) on status 0, ("refused", the message) on 2."""
    done = subprocess.run(
        [BIN, *args, "--json"], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    if done.returncode == 0:
        return "ok", plain(json.loads(done.stdout))
    assert done.returncode == 2, (args, done.returncode, done.stderr)
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("grundy: "), (args, line)
    message = line[len("grundy: ") :]
    for flag, keyword in FLAG_TO_KEYWORD:
        message = message.replace(flag, keyword)
    return "refused", message


def python(call):
    """("ok", the result as a dict) or ("refused", the ValueError's message)."""
    try:
        result = call()
    except ValueError as e:
        message = str(e)
        assert message and "\n" not in message, message
        assert "--" not in message, f"a CLI flag in a Python message: {message}"
        return "refused", message
    return "ok", result.to_dict() if hasattr(result, "to_dict") else result


# Take-and-break codes in CGSuite's notation, valid or not: digits of every form, qualifiers,
# digits before d0 (moves that add tokens), repeating parts, and stray characters.
QUALIFIER = st.sampled_from(["", "", "", "!", "?", "="])
DIGIT = st.one_of(
    st.sampled_from(list("0123456789ABCF")),
    st.integers(0, 300).map(lambda v: f"&{v};"),
    st.lists(st.integers(0, 6), min_size=1, max_size=3).map(
        lambda js: "{" + ",".join(map(str, sorted(set(js)))) + "}"
    ),
    st.integers(2, 5).map(lambda j: "{%d+}" % j),
    st.just("*"),
)
QUALIFIED = st.tuples(DIGIT, QUALIFIER).map("".join)
CODE = st.one_of(
    st.builds(
        lambda head, tail, repeat: "".join(head) + "." + "".join(tail) + repeat,
        st.lists(QUALIFIED, max_size=3),
        st.lists(QUALIFIED, max_size=4),
        st.one_of(st.just(""), QUALIFIED.map(lambda d: f"[{d}]")),
    ),
    st.text(alphabet="0123478.&;{}[]+*!?=,#x", max_size=10),
    st.sampled_from(["kayles", "dawsons-kayles", "officers", "grundys-game", "nim", "80.0"]),
)


@BOUNDED
@given(code=CODE, n=st.integers(0, 25))
def test_takebreak_sequences_equal_the_cli(code, n):
    ours = python(lambda: grundy.takebreak(code, n))
    theirs = cli("takebreak", code, "-n", str(n), "--print", *NO_STATE)
    if ours[0] == "ok" and theirs[0] == "refused":
        # The CLI refuses its state flags for a code only the general engine runs; the same
        # run without them is the comparison.
        theirs = cli("takebreak", code, "-n", str(n), "--print")
    assert ours == theirs, code


@BOUNDED
@given(code=CODE)
def test_takebreak_codes_print_as_the_cli_prints_them(code):
    ours = python(lambda: grundy.takebreak_code(code))
    theirs = cli("takebreak", code, "-n", "0")
    if theirs[0] == "ok":
        theirs = ("ok", theirs[1]["code"])
    assert ours == theirs, code


HEAPS = st.lists(st.integers(0, 30), min_size=1, max_size=4)


@BOUNDED
@given(
    code=st.sampled_from(["0.07", "0.77", "0.137", "4.07", "4!.0", "80.0", "{2+}.0", "0.[3]"]),
    heaps=HEAPS,
    max_moves=st.integers(0, 5),
)
def test_takebreak_positions_equal_the_cli(code, heaps, max_moves):
    ours = python(lambda: grundy.takebreak_position(code, heaps, max_moves=max_moves))
    theirs = cli(
        "takebreak", code, "--heaps", ",".join(map(str, heaps)), "--max-moves", str(max_moves)
    )
    assert ours == theirs, (code, heaps)


@BOUNDED
@given(heaps=st.lists(st.integers(0, 2**70), min_size=1, max_size=5))
def test_nim_equals_the_cli(heaps):
    assert python(lambda: grundy.nim(heaps)) == cli("nim", *map(str, heaps))


@BOUNDED
@given(
    heaps=st.lists(st.integers(0, 200), min_size=1, max_size=4),
    subtract=st.lists(st.integers(0, 12), min_size=1, max_size=4),
    all_but=st.booleans(),
)
def test_subtraction_equals_the_cli(heaps, subtract, all_but):
    words = ",".join(map(str, subtract))
    if all_but:
        ours = python(lambda: grundy.subtraction(heaps, all_but=subtract))
        theirs = cli("subtraction", "--all-but", words, *map(str, heaps))
    else:
        ours = python(lambda: grundy.subtraction(heaps, set=subtract))
        theirs = cli("subtraction", "--set", words, *map(str, heaps))
    assert ours == theirs, (heaps, subtract, all_but)


@BOUNDED
@given(a=st.integers(0, 60), b=st.integers(0, 60))
def test_wythoff_equals_the_cli(a, b):
    assert python(lambda: grundy.wythoff(a, b)) == cli("wythoff", str(a), str(b))


# Boards of at most 16 cells, some blocked; each row drawn as a line of '.' and '#'.
BOARD = st.integers(1, 4).flatmap(
    lambda cols: st.lists(
        st.lists(st.sampled_from(".....#"), min_size=cols, max_size=cols).map("".join),
        min_size=1,
        max_size=4,
    ).map(lambda rows: "\n".join(rows) + "\n")
)


@BOUNDED
@given(board=BOARD, outcome_only=st.booleans())
def test_cram_boards_equal_the_cli(board, outcome_only):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(board)
    try:
        flags = ["--outcome-only"] if outcome_only else []
        ours = python(lambda: grundy.cram(board=board, outcome_only=outcome_only))
        assert ours == cli("cram", "--board", f.name, *flags), board
    finally:
        os.unlink(f.name)


@BOUNDED
@given(rows=st.integers(0, 5), cols=st.integers(0, 5))
def test_cram_rectangles_equal_the_cli(rows, cols):
    ours = python(lambda: grundy.cram(rows, cols))
    assert ours == cli("cram", f"{rows}x{cols}"), (rows, cols)


@BOUNDED
@given(shape=st.lists(st.integers(0, 6), min_size=1, max_size=4))
def test_chomp_shapes_equal_the_cli(shape):
    # Any list of row lengths: a Young diagram (non-increasing) is answered, the rest refused.
    ours = python(lambda: grundy.chomp(shape=shape))
    assert ours == cli("chomp", "--shape", ",".join(map(str, shape))), shape


@BOUNDED
@given(parts=st.lists(st.integers(0, 6), min_size=1, max_size=4))
def test_young_diagrams_equal_the_cli(parts):
    ours = python(lambda: grundy.young(parts))
    assert ours == cli("young", ",".join(map(str, parts))), parts
