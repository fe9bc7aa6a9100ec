"""``make serve`` as a maintainer uses it: a rule file saved shows in the page already open, by itself,
and no service worker keeps serving the pages it saved before (the site as built keeps its worker)."""

from __future__ import annotations

from serve_session import PAGE, serving


def test_a_saved_rule_shows_in_the_open_page_and_no_worker_serves_old_pages(builds_site, browser):
    context = browser.new_context()  # service workers allowed, as in a maintainer's browser
    try:
        with serving() as session:
            page = context.new_page()
            page.goto(session.url + PAGE)
            page.wait_for_load_state("load")
            for word in ("Savedonce", "Savedtwice"):
                session.save_with(word)
                session.wait_for_word(page, word)
            registrations = session.ask(page, "async () => (await navigator.serviceWorker.getRegistrations()).length")
            assert registrations == 0, session.said()
            assert session.ask(page, "document.querySelectorAll('.kr-offline-indicator').length") == 0
    finally:
        context.close()
