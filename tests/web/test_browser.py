"""The chat page in a real browser: Debian's chromium driven by playwright against a live
`arbiter serve` (the `live_server` fixture) over the real index of ../shared/corpus.

When /usr/bin/chromium is missing the tests FAIL with the install command: CI must run them
for real (`make test` calls scripts/ensure-chromium.sh first).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
# The first question may load the embedding model in the server: allow for it.
ANSWER_TIMEOUT_MS = 180_000
UI_TIMEOUT_MS = 30_000

QUESTION = 'Does "Kill a unit" target the unit?'
FOLLOW_UP = 'And "Kill a unit at a battlefield": does it target the battlefield?'
ABSTAINS = "Can I change my targets after blorping them?"  # a word nobody knows: "can't rule"
MARVEL = 'In Marvel Champions, does "Deal 5 damage to a minion" target the minion?'
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.fail(
            "Debian's chromium is not installed at /usr/bin/chromium, so the browser test cannot "
            "run. Install it with `apt-get update && apt-get install -y chromium` (as root), or "
            "run `scripts/ensure-chromium.sh`.",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class PageWatch:
    """Every request the page makes and every script error it raises."""

    def __init__(self, page: object) -> None:
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.csp: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))  # type: ignore[attr-defined]
        page.on("pageerror", lambda e: self.errors.append(str(e)))  # type: ignore[attr-defined]
        page.on(  # type: ignore[attr-defined]
            "console",
            lambda m: self.csp.append(m.text) if "Content Security Policy" in m.text else None,
        )

    def assert_local_only(self) -> None:
        outside = [
            u
            for u in self.requests
            if urlsplit(u).scheme not in ("data", "about", "blob")
            and urlsplit(u).hostname != "127.0.0.1"
        ]
        assert not outside, f"the page fetched from outside 127.0.0.1: {outside}"
        assert not self.errors, f"script errors on the page: {self.errors}"
        assert not self.csp, f"the page broke its Content-Security-Policy: {self.csp}"


def _open(browser: object, live_server: str, path: str = "/", **context_args: object):  # type: ignore[no-untyped-def]
    context = browser.new_context(**context_args)  # type: ignore[attr-defined]
    page = context.new_page()
    watch = PageWatch(page)
    page.goto(f"{live_server}{path}")
    page.wait_for_selector("body[data-ready=true]", timeout=UI_TIMEOUT_MS)
    return context, page, watch


def _wait_for_answers(page: object, count: int) -> None:
    """Wait until the thread holds `count` answers; fail with the page's error if one shows.
    (Locators, not wait_for_function: the page's CSP forbids evaluating strings.)"""
    error = page.get_by_test_id("error")  # type: ignore[attr-defined]
    nth = page.get_by_test_id("answer").nth(count - 1)  # type: ignore[attr-defined]
    nth.or_(error).first.wait_for(state="visible", timeout=ANSWER_TIMEOUT_MS)
    if error.is_visible():
        pytest.fail(f"the page showed an error instead of an answer: {error.inner_text()}")


def test_ask_cite_feedback_follow_up_and_permalink(
    browser: object, live_server: str, artifacts_dir: Path
) -> None:
    from playwright.sync_api import expect

    context, page, watch = _open(browser, live_server, viewport={"width": 1100, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    try:
        # The game selector offers Auto plus every loaded game.
        select = page.get_by_test_id("game")
        expect(select).to_have_value("")
        games = json.loads(page.evaluate("fetch('/v1/games').then(r => r.text())"))["games"]
        assert games
        options = select.locator("option").all_inner_texts()
        assert options[0] == "Auto" and len(options) == 1 + len(games)

        # Ask with Enter (game Auto); the answer card appears with its verdict badge.
        box = page.get_by_label("Your question")
        box.fill(QUESTION)
        with page.expect_request(lambda r: r.url.endswith("/v1/ask")) as first_req:
            box.press("Enter")
        assert json.loads(first_req.value.post_data or "{}") == {
            "question": QUESTION,
            "game": None,
            "conversation_id": None,
        }
        _wait_for_answers(page, 1)
        answers = page.get_by_test_id("answer")
        expect(answers).to_have_count(1)
        first = answers.nth(0)
        badge = first.get_by_test_id("verdict")
        expect(badge).to_have_attribute("data-verdict", "yes")
        expect(badge).to_have_text("Yes")
        expect(page.get_by_test_id("thread")).to_have_attribute("aria-live", "polite")
        expect(box).to_have_value("")

        # A citation with its rule number; expanding it fetches the rule, whose text
        # contains the quoted words (CONTRACT.md: the quote is verbatim from the rule).
        citation = first.get_by_test_id("citation").first
        expect(citation).to_be_visible()
        rule_number = citation.get_attribute("data-rule") or ""
        assert rule_number
        label = citation.locator(".rule-number")
        expect(label).to_have_attribute("title", rule_number)
        if rule_number[0].isdigit():
            expect(label).to_have_text(rule_number)
        else:  # an anchor of an unnumbered document: words, not "p1"
            expect(label).not_to_have_text(rule_number)
        quote = citation.locator(".citation-quote").inner_text()
        toggle = citation.get_by_test_id("citation-toggle")
        expect(toggle).to_have_attribute("aria-expanded", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        rule_text = citation.get_by_test_id("rule-text")
        expect(rule_text).to_be_visible(timeout=UI_TIMEOUT_MS)
        assert _squash(quote) in _squash(rule_text.inner_text())

        # The engine's steps are there but collapsed.
        steps = first.get_by_test_id("steps")
        if steps.count() and steps.is_visible():
            assert steps.get_attribute("open") is None

        # Thumbs up: the API stores it (200 {"ok": true}; it answers 404 for an unknown
        # answer) and the page says so.
        with page.expect_response(lambda r: r.url.endswith("/v1/feedback")) as fb:
            first.get_by_test_id("thumbs-up").click()
        assert fb.value.status == 200 and fb.value.json() == {"ok": True}
        sent = json.loads(fb.value.request.post_data or "{}")
        answer_id = first.get_attribute("data-answer-id")
        assert answer_id and sent == {"answer_id": answer_id, "helpful": True}
        expect(first.get_by_test_id("feedback-status")).to_contain_text("recorded")
        expect(first.get_by_test_id("thumbs-up")).to_have_attribute("aria-pressed", "true")

        # A follow-up goes into the same conversation and the thread shows both answers.
        conversation_id = first.get_attribute("data-conversation-id")
        assert conversation_id
        expect(page.get_by_test_id("conversation-id")).to_have_text(conversation_id)
        box.fill(FOLLOW_UP)
        with page.expect_request(lambda r: r.url.endswith("/v1/ask")) as second_req:
            page.get_by_test_id("ask").click()
        assert json.loads(second_req.value.post_data or "{}")["conversation_id"] == conversation_id
        _wait_for_answers(page, 2)
        expect(answers).to_have_count(2)
        second = answers.nth(1)
        assert second.get_attribute("data-conversation-id") == conversation_id
        assert second.get_attribute("data-answer-id") not in (None, "", answer_id)
        expect(second.get_by_test_id("verdict")).to_have_attribute(
            "data-verdict", re.compile(r"^(yes|no|unknown)$")
        )
        expect(page.get_by_test_id("question-text")).to_have_text([QUESTION, FOLLOW_UP])

        # Copy link puts the permalink on the clipboard.
        first.get_by_test_id("copy-link").click()
        expect(first.get_by_test_id("copy-status")).to_have_text("Link copied.")
        link = page.evaluate("navigator.clipboard.readText()")
        assert link == f"{live_server}/?a={answer_id}"

        artifacts_dir.mkdir(parents=True, exist_ok=True)
        # Grow the viewport to the whole page so the sticky question box sits below the thread.
        height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": 1100, "height": height})
        page.screenshot(path=str(artifacts_dir / "chat.png"))
        watch.assert_local_only()

        # The permalink shows that stored answer on a fresh page (phone-sized viewport).
        perma_ctx, perma, perma_watch = _open(
            browser, live_server, f"/?a={answer_id}", viewport={"width": 390, "height": 844}
        )
        try:
            shown = perma.get_by_test_id("answer")
            expect(shown).to_have_count(1, timeout=UI_TIMEOUT_MS)
            assert shown.get_attribute("data-answer-id") == answer_id
            expect(shown.get_by_test_id("verdict")).to_have_attribute("data-verdict", "yes")
            expect(perma.get_by_test_id("question-text")).to_have_text(QUESTION)
            perma.screenshot(path=str(artifacts_dir / "chat-mobile.png"), full_page=True)
            perma_watch.assert_local_only()
        finally:
            perma_ctx.close()
    finally:
        context.close()


def test_keyboard_and_clear_errors(browser: object, live_server: str) -> None:
    from playwright.sync_api import expect

    context, page, watch = _open(browser, live_server, "/?a=no-such-answer")
    try:
        # A permalink to an answer the server does not have: the API's 404, said plainly.
        error = page.get_by_test_id("error")
        expect(error).to_be_visible()
        expect(error).to_contain_text("no-such-answer")
        expect(error).to_have_attribute("role", "alert")

        # Shift+Enter is a newline, not a submit.
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/v1/ask") else None)
        box = page.get_by_label("Your question")
        box.press_sequentially("first line")
        box.press("Shift+Enter")
        box.press_sequentially("second line")
        expect(box).to_have_value("first line\nsecond line")
        assert asked == []

        # The real API's 422 for an over-long question is shown with the API's reason. (The
        # textarea's maxlength stops typing or pasting past the cap, so set the value directly.)
        box.evaluate("(el, text) => { el.value = text; }", "x" * 2001)
        with page.expect_response(lambda r: r.url.endswith("/v1/ask")) as rejected:
            box.press("Enter")
        assert rejected.value.status == 422
        expect(error).to_contain_text("not accepted")
        expect(error).to_contain_text("2000")

        # A 429 from the server: the page reports when to try again (Retry-After). The
        # rate limit is off on the live server, so the response is substituted here.
        page.route(
            "**/v1/ask",
            lambda route: route.fulfill(
                status=429,
                headers={"Retry-After": "7", "Content-Type": "application/json"},
                body=json.dumps({"detail": "rate limit exceeded"}),
            ),
        )
        box.fill(QUESTION)
        box.press("Enter")
        expect(error).to_contain_text("Too many requests")
        expect(error).to_contain_text("7 seconds")
        expect(page.get_by_test_id("answer")).to_have_count(0)
        expect(box).to_have_value(QUESTION)  # kept so it can be sent again
        watch.assert_local_only()
    finally:
        context.close()


def _no_sideways_scroll(page: object) -> None:
    widths = page.evaluate(  # type: ignore[attr-defined]
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"sideways scroll: content {widths[0]} px in {widths[1]} px"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone-390", "desktop"])
def test_page_fits_labels_abstentions_and_shows_a_late_error(
    browser: object, live_server: str, artifacts_dir: Path, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    context, page, watch = _open(browser, live_server, viewport=viewport)
    try:
        _no_sideways_scroll(page)
        box = page.get_by_label("Your question")
        answers = page.get_by_test_id("answer")
        for n, question in enumerate([QUESTION, MARVEL, ABSTAINS], start=1):
            box.fill(question)
            box.press("Enter")
            _wait_for_answers(page, n)
        _no_sideways_scroll(page)  # the header now shows the conversation too

        # Unnumbered anchors read as words (docs/anchors.md): "¶1", "Target, 2nd paragraph".
        labels = page.locator('[data-testid="citation"] .rule-number').all_inner_texts()
        anchors = page.locator('[data-testid="citation"]').evaluate_all(
            "els => els.map(e => e.dataset.rule)"
        )
        for label, anchor in zip(labels, anchors):
            assert not re.fullmatch(r"p\d+|[a-z-]+(\.\d+)*", label), (label, anchor)
        marvel = answers.nth(1).get_by_test_id("citation").first
        expect(marvel).to_have_attribute("data-rule", re.compile(r"^target\.\d"))
        expect(marvel.locator(".rule-number")).to_have_text(re.compile(r"^Target, \d+(st|nd|rd|th) paragraph"))

        # A "can't rule": its rules are the closest ones, not citations it rests on, and its
        # reason is not repeated as if it were a system error.
        abstained = answers.nth(2)
        expect(abstained.get_by_test_id("verdict")).to_have_attribute("data-verdict", "unknown")
        expect(abstained.get_by_test_id("citations")).to_be_visible()
        expect(abstained.get_by_test_id("citations").locator("h3")).to_have_text("Closest rules")
        expect(answers.nth(0).get_by_test_id("citations").locator("h3")).to_have_text("Citations")
        note = abstained.get_by_test_id("answer-error")
        if note.is_visible():
            expect(note).to_have_class(re.compile(r"\banswer-note\b"))
        expect(page.get_by_test_id("error")).to_be_hidden()

        # An error after answers (the store went away) is on screen, above everything.
        page.route(
            "**/v1/ask",
            lambda route: route.fulfill(
                status=503,
                headers={"Retry-After": "5", "Content-Type": "application/json"},
                body=json.dumps({"detail": {"message": "store unreachable", "retry_after": 5}}),
            ),
        )
        page.evaluate("window.scrollTo(0, 0)")
        box.fill(QUESTION)
        box.press("Enter")
        error = page.get_by_test_id("error")
        expect(error).to_contain_text("Try again in 5 seconds")
        expect(error).to_be_in_viewport(ratio=1.0)
        on_top = error.evaluate(
            """e => { const r = e.getBoundingClientRect();
                      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                      return e.contains(hit); }"""
        )
        assert on_top, "the error is covered by something"
        _no_sideways_scroll(page)
        name = "phone" if viewport is PHONE else "desktop"
        page.screenshot(path=str(artifacts_dir / f"chat-{name}-error.png"))
        watch.assert_local_only()
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_api_docs_render_offline_from_packaged_assets(
    browser: object, live_server: str, path: str
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=DESKTOP)  # type: ignore[attr-defined]
    page = context.new_page()
    loaded: list[str] = []
    page.on("requestfinished", lambda r: loaded.append(r.url))
    try:
        page.goto(f"{live_server}{path}")
        if path == "/docs":
            expect(page.locator(".swagger-ui .info .title")).to_contain_text(
                "Arbiter", timeout=UI_TIMEOUT_MS
            )
            expect(page.locator(".opblock").first).to_be_visible()
            assert page.locator(".opblock").count() >= 8
        else:
            expect(page.locator("h1").first).to_contain_text("Arbiter", timeout=UI_TIMEOUT_MS)
            expect(page.get_by_text("/v1/ask").first).to_be_attached()
        outside = [u for u in loaded if urlsplit(u).hostname not in (None, "127.0.0.1")]
        assert not outside, f"{path} loaded from outside 127.0.0.1: {outside}"
        assert any("/docs-assets/" in u for u in loaded)
    finally:
        context.close()
