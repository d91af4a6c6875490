"""A clarification in the chat page, in a real browser: the options are buttons under the
"can't rule"; choosing one by keyboard asks it in the same conversation and shows the ruling."""

from __future__ import annotations

from pathlib import Path

from test_browser import PHONE, _no_sideways_scroll, _open, _wait_for_answers, browser  # noqa: F401

UNDETECTED = "modal ability - can I wait until resolution to pick the mode?"


def test_clarification_buttons_ask_the_option_in_the_same_conversation(
    browser: object, live_server: str, artifacts_dir: Path  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    context, page, watch = _open(browser, live_server, viewport=PHONE)
    try:
        box = page.get_by_label("Your question")
        box.fill(UNDETECTED)
        box.press("Enter")
        _wait_for_answers(page, 1)
        first = page.get_by_test_id("answer").nth(0)
        expect(first.get_by_test_id("verdict")).to_have_attribute("data-verdict", "unknown")
        clarify = first.get_by_test_id("clarify")
        expect(clarify).to_be_visible()
        expect(clarify.get_by_test_id("clarify-prompt")).to_have_text("I can't tell which game this is about. Which one is it?")
        options = clarify.get_by_role("button")
        assert 1 <= options.count() <= 5
        expect(clarify.get_by_role("group", name="I can't tell which game this is about. Which one is it?")).to_be_visible()
        labels = options.all_inner_texts()
        assert "Riftbound" in labels, labels
        conversation = page.get_by_test_id("conversation").get_attribute("data-conversation-id")
        assert conversation
        _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts_dir / "chat-phone-clarify.png"))

        # Keyboard only: focus the option, press Enter.
        choice = clarify.get_by_role("button", name="Riftbound")
        choice.focus()
        expect(choice).to_be_focused()
        page.keyboard.press("Enter")
        _wait_for_answers(page, 2)
        second = page.get_by_test_id("answer").nth(1)
        expect(choice).to_have_attribute("aria-pressed", "true")
        expect(second.get_by_test_id("verdict")).to_have_attribute("data-verdict", "no")
        expect(second.get_by_test_id("answer-game")).to_contain_text("Riftbound")
        expect(second.get_by_test_id("clarify")).to_be_hidden()
        expect(page.get_by_test_id("question-text").nth(1)).to_have_text(UNDETECTED)
        assert second.get_attribute("data-conversation-id") == conversation
        _no_sideways_scroll(page)
        watch.assert_local_only()
    finally:
        context.close()


def test_judge_view_checks_the_understood_scenario_from_a_schema_form(
    browser: object, live_server: str, artifacts_dir: Path  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    context, page, watch = _open(browser, live_server, viewport=PHONE)
    try:
        box = page.get_by_label("Your question")
        box.fill('Does "Kill a unit" target the unit?')
        box.press("Enter")
        _wait_for_answers(page, 1)
        answer = page.get_by_test_id("answer").nth(0)
        expect(answer.get_by_test_id("verdict")).to_have_attribute("data-verdict", "yes")
        judge = answer.get_by_test_id("judge")
        judge.locator("summary").click()
        form = judge.get_by_test_id("judge-form")
        # Generated from the schema: the game is a text box, the question kind is fixed.
        expect(form.get_by_label("game", exact=True)).to_have_value("riftbound", timeout=30_000)
        expect(form.locator("legend", has_text="ability").first).to_be_visible()
        judge.get_by_test_id("judge-check").click()
        verdict = judge.get_by_test_id("judge-verdict")
        expect(verdict).to_have_attribute("data-verdict", "yes", timeout=30_000)
        expect(judge.get_by_test_id("judge-result")).to_contain_text("Rules:")

        # An edit is what gets checked: an unknown game is refused by the engine, plainly.
        form.get_by_label("game", exact=True).fill("no-such-game")
        judge.get_by_test_id("judge-check").click()
        expect(judge.get_by_test_id("judge-result")).to_contain_text("not accepted")
        _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts_dir / "chat-phone-judge.png"), full_page=True)

        # An abstention without a scenario: the form starts from the schema's defaults, with
        # the answer's game filled in.
        page.get_by_test_id("game").select_option("riftbound")
        box.fill("can a spell with 2 trgts pick the same unit twice?")
        box.press("Enter")
        _wait_for_answers(page, 2)
        second = page.get_by_test_id("answer").nth(1)
        expect(second.get_by_test_id("verdict")).to_have_attribute("data-verdict", "unknown")
        judge2 = second.get_by_test_id("judge")
        judge2.locator("summary").click()
        expect(judge2.get_by_test_id("judge-form").get_by_label("game", exact=True)).to_have_value(
            "riftbound", timeout=30_000)
        watch.assert_local_only()
    finally:
        context.close()
