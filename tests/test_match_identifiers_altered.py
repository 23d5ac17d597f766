"""An identifier that changed in any letter names another setting: `max_conn` ->
`max_conns` is another key, though all the old letters stand in the new one. A name
respelled, shortened or moved to another namespace is the same setting (see
`test_a_name_written_short_is_the_same_name` in test_match_meaning.py)."""

from __future__ import annotations

import pytest

from claimledger.reading.match import locate
from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Set max_worker to 4 in the config.",
            "Set max_workers to 4 in the config.",
            id="snake-case-grown-by-a-letter",
        ),
        pytest.param(
            "Set max_conn to 4 in the config.",
            "Set max_conns to 4 in the config.",
            id="snake-case-plural",
        ),
        pytest.param(
            "Pass --max-retry to the tool.",
            "Pass --max-retries to the tool.",
            id="a-command-line-option",
        ),
        pytest.param(
            "Set maxWorker to 4 in the config.",
            "Set maxWorkers to 4 in the config.",
            id="camel-case",
        ),
        pytest.param(
            "Set pool.max.size to 4 in the config.",
            "Set pool.max.sizes to 4 in the config.",
            id="dotted",
        ),
        pytest.param(
            "Set the max_worker setting to 4.",
            "Set a max_workers setting to 4.",
            id="with-its-article-changed",
        ),
        pytest.param(
            "Set max_retries to 4 in the config.",
            "Set max_retries_total to 4 in the config.",
            id="grown-by-a-part",
        ),
    ],
)
def test_an_identifier_changed_in_a_letter_is_another_setting(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert level(quote, passage) == "changed", found
    assert "identifier changed" in found.kinds


def test_a_name_grown_by_a_part_into_an_identifier_may_have_changed() -> None:
    quote = "Set the HTTP variable before running."
    assert level(quote, "Set the HTTP_PROXY variable before running.") == "uncertain"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Set max_mem_per_child to 4 in the config.",
            "Set maxmemperchild to 4 in the config.",
            id="separators-dropped",
        ),
        pytest.param(
            "Set max_workers in the config.", "Set MAX_WORKERS in the config.", id="capitals"
        ),
        pytest.param(
            "Set max_workers in the config.",
            "Set --max-workers in the config.",
            id="written-as-an-option",
        ),
        pytest.param(
            "Open the sign-in page first.",
            "Open the sign-ins page first.",
            id="a-hyphenated-word-is-no-option",
        ),
    ],
)
def test_an_identifier_respelled_is_the_same(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_the_same_member_of_another_module_stays_a_name_that_may_have_changed() -> None:
    """`np.array` / `numpy.array`: the words around it tell whether the module is one."""
    assert level("Call np.array to build it.", "Call numpy.array to build it.") == "uncertain"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Edit config.yaml to set the port.",
            "Edit config.yml to set the port.",
            id="yaml-spelt-yml",
        ),
        pytest.param("Open the index.htm page.", "Open the index.html page.", id="htm-spelt-html"),
        pytest.param(
            "Use the docker-compose.yml file.",
            "Use the docker-compose.yaml file.",
            id="yml-spelt-yaml",
        ),
        pytest.param("Read the README.md file.", "Read the README file.", id="extension-left-off"),
        pytest.param("Run make_docs.sh to build.", "Run make_docs to build.", id="script-named"),
    ],
)
def test_one_file_named_with_its_extension_spelt_otherwise_or_left_off_is_the_same(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Edit config.yaml first.", "Edit config.json first.", id="another-format"),
        pytest.param("Edit config.yaml first.", "Edit configs.yaml first.", id="another-stem"),
        pytest.param("Run make_docs.sh to build.", "Run make_doc.sh to build.", id="script"),
    ],
)
def test_a_file_of_another_name_or_format_is_another_file(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert level(quote, passage) == "changed", found
    assert "identifier changed" in found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Set abcDef ghiJkl first.", "Set abcDefs ghiJkls first.", id="camel-case"),
        pytest.param(
            "Set max_conn max_retry now.", "Set max_conns max_retries now.", id="snake-case"
        ),
        pytest.param(
            "Set max_conn, max_retry now.", "Set max_conns, max_retries now.", id="a-comma"
        ),
        pytest.param(
            "Set max_conn and max_retry now.", "Set max_conns and max_retries now.", id="and"
        ),
        pytest.param(
            "Use the maxConn, maxRetry options.",
            "Use the maxConns, maxRetries options.",
            id="before-their-noun",
        ),
        pytest.param(
            "Pass --max-retry --max-conn to it.",
            "Pass --max-retries --max-conns to it.",
            id="options",
        ),
        pytest.param("Set abcDef value first.", "Set abcDefs values first.", id="with-a-word"),
    ],
)
def test_identifiers_in_a_row_each_changed_in_a_letter_are_other_settings(
    quote: str, passage: str
) -> None:
    """Each grown by a letter, as one alone is: the run of them is no harmless plural."""
    found = judged(quote, passage)
    assert level(quote, passage) == "changed", found
    assert "identifier changed" in found.kinds


def test_identifiers_in_a_row_changed_are_flagged_where_a_page_is_located() -> None:
    page = "Intro paragraph about the product.\n\nSet abcDefs ghiJkls first.\n\nAnother one."
    found = locate("Set abcDef ghiJkl first.", page)
    assert found.meaning_changed, found
    assert "identifier changed" in found.change_kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Set max_conn max_retry now.", "Set MAX_CONN MAX_RETRY now.", id="capitals"),
        pytest.param("Set max_conn max_retry now.", "Set maxConn maxRetry now.", id="camel"),
        pytest.param(
            "See config.yaml settings.yaml now.", "See config.yml settings.yml now.", id="yml"
        ),
        pytest.param("Set max_conn max_retry now.", "Set max_retry max_conn now.", id="reordered"),
        pytest.param("Set DBOSClient fooBar now.", "Set DBOS_Client foo_bar now.", id="split"),
        pytest.param(
            "Set max_conn max_retry now.", "Set maxRetry maxConn now.", id="reordered-camel"
        ),
        pytest.param(
            "Set max_conn, max_retry now.", "Set maxRetry, maxConn now.", id="reordered-comma"
        ),
        pytest.param(
            "See config.yaml settings.yaml now.",
            "See settings.yml config.yml now.",
            id="reordered-yml",
        ),
        pytest.param(
            "Set DBOSClient fooBar now.", "Set foo_bar DBOS_Client now.", id="reordered-split"
        ),
    ],
)
def test_identifiers_in_a_row_respelled_are_the_same(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)
