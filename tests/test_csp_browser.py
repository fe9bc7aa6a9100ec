"""Every page carries a Content-Security-Policy (kensei_ref/build/csp.py): an inline script that is
not one of Material's own does not run, markup in a page cannot run script, and the site itself (the
calculators' engine, search, pages opened in place, the offline worker) runs with no violation.
"""

from __future__ import annotations

import re

import pytest
from page_errors import recording_errors

from kensei_ref.build import csp

ENGINE_TIMEOUT = 90_000
POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">')
SETTLED = """() => document.querySelector(".kr-calc")?.dataset.engineState === "ready"
  && document.querySelector('.kr-result[data-scenario="1"]').dataset.state === "fresh" """
WATCH = """() => {
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", (event) =>
    window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`));
}"""


def test_every_page_carries_one_policy_first_in_its_head(built_site):
    site, _ = built_site
    pages = sorted(site.rglob("*.html"))  # the offline copy is a zip: its pages are not among them
    assert len(pages) > 50
    for path in pages:
        html = path.read_text(encoding="utf-8")
        found = POLICY.findall(html)
        assert len(found) == 1, f"{path.relative_to(site)}: {len(found)} policies"
        head = html[: html.index("</head>")]
        assert head.index("Content-Security-Policy") < head.index("<script"), path
        policy = found[0]
        assert "object-src 'none'" in policy and "base-uri 'self'" in policy
        assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy
        assert "require-trusted-types-for 'script'" in policy and "trusted-types kensei-ref default" in policy
        assert "style=" not in html and "<style" not in html, f"{path.relative_to(site)}: an inline style"
        for needed in csp.inline_hashes(html):
            assert needed in policy, f"{path.relative_to(site)}: inline script {needed} not allowed"


def test_inline_script_hashes_are_of_code_not_data():
    html = (
        '<script>var a=1</script><script type="application/json">{"b":2}</script>'
        '<script src="x.js"></script><script type="module">import "./y.js"</script>'
    )
    assert len(csp.inline_hashes(html)) == 2


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = recording_errors(context.new_page(), console=True)
    yield page
    context.close()


def test_injected_markup_runs_no_script(page, server):
    page.goto(f"{server}/kensei/orders/")
    page.evaluate(WATCH)
    page.evaluate("""() => {
      window.__ran = [];
      const article = document.querySelector("article");
      article.insertAdjacentHTML("beforeend", '<img src="x" onerror="window.__ran.push(1)">');
      const script = document.createElement("script");
      script.textContent = "window.__ran.push(2)";
      document.body.append(script);
    }""")
    page.wait_for_function("() => window.__violations.length >= 2")
    assert page.evaluate("window.__ran") == []
    assert any(v.startswith("script-src") for v in page.evaluate("window.__violations"))


def test_no_inline_style_and_no_script_from_elsewhere(page, server):
    """Styles from the site's files only; Trusted Types: a script or worker from a string naming another
    site is refused by the policies (assets/js/trusted-types.js) before any request."""
    page.goto(f"{server}/kensei/orders/")
    page.evaluate(WATCH)
    refused = page.evaluate("""() => {
      const article = document.querySelector("article");
      article.insertAdjacentHTML("beforeend", '<p id="kr-styled" style="color: rgb(1, 2, 3)">x</p>');
      const refusals = [];
      for (const attempt of [
        () => new Worker("https://elsewhere.example/w.js"),
        () => { document.createElement("script").src = "https://elsewhere.example/s.js"; },
        () => window.krTrustedTypes.createScriptURL("//elsewhere.example/s.js"),
      ]) {
        try { attempt(); } catch (error) { refusals.push(error.name); }
      }
      return refusals;
    }""")
    assert refused == ["TypeError"] * 3
    page.wait_for_function("() => window.__violations.some((v) => v.startsWith('style-src'))")
    colour = page.locator("#kr-styled").evaluate("el => getComputedStyle(el).color")
    assert colour != "rgb(1, 2, 3)"


def test_the_site_runs_under_its_policy(page, server):
    page.goto(f"{server}/calculators/")
    page.evaluate(WATCH)
    page.click("article a[href$='calculators/shooting/']")  # opened in place: the policy stays the page's
    page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    page.fill('form[data-scenario="1"] input[name="models"]', "4")
    page.wait_for_function(SETTLED)
    page.goto(f"{server}/fr/glossary/")
    page.evaluate(WATCH)
    page.locator("label[for='__search']").first.click()
    page.keyboard.type("couvert")
    page.wait_for_selector(".md-search-result__item", timeout=60_000)
    page.locator(".md-search-result__item a").first.click()  # a result opened in place
    page.wait_for_function("() => !location.pathname.endsWith('/fr/glossary/')")
    assert page.evaluate("window.__violations") == []
    for path in ("/ru/units/", "/digest/", "/fr/offline/"):  # unit profiles, QR codes, the offline panel
        page.goto(f"{server}{path}")
        page.evaluate(WATCH)
        if path == "/digest/":  # a code is drawn as its block comes near the screen
            page.locator(".kr-digest__block").first.scroll_into_view_if_needed()
            page.locator(".kr-digest__qr svg").first.wait_for()
        page.wait_for_timeout(1_000)
        assert page.evaluate("window.__violations") == [], path
    assert not [text for text in page.console_errors if "Content Security Policy" in text], page.console_errors
    assert not page.errors


def test_every_page_names_the_same_policy_as_the_servers_header(built_site):
    """The header (deploy: content-security-policy.conf) and every page's <meta> name the same inline
    scripts, those of every language (a 404 page's differs by language), and no blob: worker or frame."""
    site, _ = built_site
    header = (site / csp.SERVER_FILE).read_text(encoding="utf-8")
    header_policy = re.search(r'add_header Content-Security-Policy "([^"]+)"', header)[1]
    header_only = "; " + "; ".join(f"{name} {sources}" for name, sources in csp.HEADER_ONLY)
    assert header_policy.endswith(header_only)
    policies = {POLICY.findall(path.read_text(encoding="utf-8"))[0] for path in site.rglob("*.html")}
    assert policies == {header_policy.removesuffix(header_only)}
    directives = dict(part.split(" ", 1) for part in header_policy.split("; "))
    assert "blob:" not in directives["worker-src"] and "blob:" not in directives["frame-src"]
    assert directives["script-src"].count("'sha256-") == len(
        set().union(*(csp.inline_hashes(path.read_text(encoding="utf-8")) for path in site.rglob("*.html")))
    )
