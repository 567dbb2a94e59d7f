"""Bad input raises TypeError/ValueError with the CLI's one-line message; never a
PanicException or a crash."""

from __future__ import annotations

import grundy
import pytest
from conftest import cli_error

# (Python call, the same input given to the CLI)
SAME_MESSAGE = [
    (lambda: grundy.takebreak("0.9x!"), ["takebreak", "0.9x!"]),
    (lambda: grundy.takebreak("abc"), ["takebreak", "abc"]),
    (lambda: grundy.takebreak("0.F", 300000), ["takebreak", "0.F", "-n", "300000"]),
    (lambda: grundy.subtraction([5], set=[0, 2]), ["subtraction", "--set", "0,2", "5"]),
    (lambda: grundy.subtraction([10**9], set=[1]), ["subtraction", "--set", "1", "1000000000"]),
    (lambda: grundy.welter([3, 3]), ["welter", "3", "3"]),
    (lambda: grundy.young([1, 2]), ["young", "1,2"]),
    (lambda: grundy.young([3, 1], remove_hook=(5, 0)), ["young", "3,1", "--remove-hook", "5,0"]),
    (lambda: grundy.takebreak_fold("0.07", 0), ["takebreak", "0.07", "--fold", "0"]),
    (lambda: grundy.nim([-3]), ["nim", "--", "-3"]),
]


@pytest.mark.parametrize("call,args", SAME_MESSAGE)
def test_value_error_has_the_cli_message(call, args):
    with pytest.raises(ValueError) as info:
        call()
    expected = cli_error(*args).replace("--fold", "fold").replace("--remove-hook", "remove_hook")
    assert str(info.value) == expected


def test_graph_errors_have_the_cli_message(tmp_path):
    bad = '{"nodes": [{"id": "a", "options": ["b"]}, {"id": "b", "options": ["a"]}]}'
    path = tmp_path / "loop.json"
    path.write_text(bad)
    with pytest.raises(ValueError) as info:
        grundy.graph(bad)
    expected = cli_error("graph", str(path)).replace("--loopy", "loopy=True")
    assert f"{path}: {info.value}" == expected


def test_python_limits_are_refused_clearly():
    # Python hands every value back as a list, so it keeps a limit the CLI no longer has
    # (the CLI extends a certified sequence by its period without storing it).
    with pytest.raises(ValueError, match="too large"):
        grundy.takebreak("0.07", 10**9)
    with pytest.raises(ValueError, match="too large"):
        grundy.takebreak_position("0.07", [10**7])


@pytest.mark.parametrize(
    "call",
    [
        lambda: grundy.nim("3 5 2"),
        lambda: grundy.nim([3, "5"]),
        lambda: grundy.nim([3.0]),
        lambda: grundy.nim([True]),
        lambda: grundy.cdnim(7),
        lambda: grundy.takebreak(7),
        lambda: grundy.graph([1, 2]),
        lambda: grundy.young(None),
    ],
)
def test_wrong_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: grundy.nim([]),
        lambda: grundy.subtraction([3]),
        lambda: grundy.subtraction([3], set=[1], all_but=[2]),
        lambda: grundy.subtraction([2**64], set=[1]),
        lambda: grundy.welter([]),
        lambda: grundy.young([]),
        lambda: grundy.young([3], core=0),
        lambda: grundy.cdnim([6, 3], max_moves=0),
        lambda: grundy.takebreak("0.07", engine="fast"),
        lambda: grundy.takebreak("grundys-game", engine="sparse"),
        lambda: grundy.takebreak_position("0.07", []),
        lambda: grundy.takebreak_cousin("grundys-game"),
        lambda: grundy.takebreak_fold("0.07", 2, check_up_to=10**6),
        lambda: grundy.graph({"nodes": []}),
        lambda: grundy.graph({"nodes": [{"id": "a", "extra": 1}]}),
        lambda: grundy.graph("{not json"),
        lambda: grundy.graph({"nodes": [{"id": "a"}]}, root="z"),
        lambda: grundy.multiplayer_li([1, 2], players=1),
        lambda: grundy.young([2**63, 2**63]),
        lambda: grundy.young([3, 1], beads=1),
    ],
)
def test_bad_values_raise_value_error(call):
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert message and "\n" not in message
    assert "panic" not in message.lower()


@pytest.mark.parametrize(
    "call",
    [
        lambda: grundy.cdnim([6, 3], max_moves=-2),
        lambda: grundy.takebreak_position("0.07", [5], max_moves=-2),
    ],
)
def test_a_negative_move_limit_is_told_the_least(call):
    with pytest.raises(ValueError, match="'-2' is negative: give a whole number, 1 or more"):
        call()


def test_hostile_sizes_do_not_crash():
    # Huge but legal inputs of the closed forms are answered, not refused or crashed on.
    assert grundy.nim([2**4000, 2**4000 + 1])["grundy_value"] == 1
    assert grundy.wythoff(10**200, 10**200)["grundy_value"] is None
    assert grundy.welter([2**63, 2**64 - 1])["coins"] == 2
    assert grundy.multiplayer_li([2**100, 3], players=2**32 - 1)["players"] == 2**32 - 1


def test_a_panic_becomes_runtime_error_not_panic_exception():
    from grundy import _grundy

    for _ in range(3):  # and the interpreter keeps working afterwards
        with pytest.raises(RuntimeError) as info:
            _grundy._check_panic_guard()
        assert type(info.value) is RuntimeError
        assert str(info.value).startswith("internal error (please report): a deliberate panic")
    assert grundy.nim([1, 2])["grundy_value"] == 3


def test_huge_negative_numbers_are_described_not_printed():
    with pytest.raises(ValueError) as info:
        grundy.nim([-(10**5000)])
    assert "is negative" in str(info.value) and "bits" in str(info.value)


def test_random_input_gives_answers_or_clean_errors():
    import random

    rng = random.Random(12)
    numbers = [0, 1, 2, 3, 7, 64, 1000, 2**32, 2**63, 2**64 - 1, 2**64, 10**30]
    calls = [
        lambda h: grundy.nim(h),
        # (the Grundy value of Wythoff positions near (1000, 1000) takes the evaluator a minute)
        lambda h: grundy.wythoff(h[0] % 100, h[-1]),
        lambda h: grundy.cdnim(h, max_moves=10),
        lambda h: grundy.subtraction(h, set=h[:2] or [1]),
        lambda h: grundy.subtraction(h, all_but=h[:1]),
        lambda h: grundy.subtraction_sequence(h[0], set=h),
        lambda h: grundy.welter(h),
        lambda h: grundy.young(sorted(h, reverse=True)),
        lambda h: grundy.young(h, from_beta=True),
        lambda h: grundy.takebreak_position("0.137", h),
        lambda h: grundy.multiplayer(h, players=2 + h[0] % 3),
        lambda h: grundy.multiplayer_li(h, players=2 + h[0] % 5),
    ]
    for _ in range(400):
        heaps = [rng.choice(numbers) for _ in range(rng.randint(1, 3))]
        call = rng.choice(calls)
        try:
            call(heaps)
        except (ValueError, TypeError) as e:
            assert str(e) and "\n" not in str(e), (heaps, e)


# Messages the library writes with the CLI's flags, reached from Python: each names the keyword
# as the caller wrote it, never a flag (issue 27: `--min-n`, `--memory`, ... in Python).
KEYWORD_MESSAGES = [
    (lambda: grundy.verify("cdnim", heaps=0), "heaps"),
    (lambda: grundy.verify("multiplayer", players=1), "players"),
    (lambda: grundy.verify("multiplayer", heaps=100), "heaps"),
    (lambda: grundy.verify("quotient-theorem", max_boxes=10**6), "max_boxes"),
    (lambda: grundy.cram(3, 4, memory="lots"), "memory"),
    (lambda: grundy.chomp(3, 4, memory="2048G"), "memory"),
    (lambda: grundy.cram(3, 4, threads=300), "threads"),
    (lambda: grundy.takebreak("0.07", 100, checkpoint_every=1e-9), "checkpoint_every"),
    (lambda: grundy.play("subtraction", [7]), "set"),
]


@pytest.mark.parametrize("call,keyword", KEYWORD_MESSAGES)
def test_messages_name_the_keyword_not_the_cli_flag(call, keyword):
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert "--" not in message, message
    assert keyword in message, message
