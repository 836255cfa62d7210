"""What Fibbers' pages cost a player on a mid-range phone on a mobile network.

Chromium (Playwright, /usr/bin/chromium) at 390 x 844, "Fast 3G"-like network through CDP
(150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) and the CPU slowed x4. Each page is opened
cold (empty cache, signed in) and then again (the repeat visit: what is fetched anew). Prints
one JSON line per page: bytes over the wire by kind, requests, render-blocking resources,
first contentful paint, DOMContentLoaded (deferred scripts run), when the move form is in the
document (table pages; it works without script, so it is usable once painted: at the first
contentful paint or at this time, whichever is later), what a table page's refresh of its live
parts costs when nothing changed ("refresh": status and bytes), and the share of each
stylesheet and script the page did not use. Times are medians of --runs cold loads. Figures only; on a
shared machine the times move by some hundreds of ms from run to run, the bytes do not.

Against a server run as production serves it (collectstatic; DEBUG off; whitenoise), e.g.
bench/phone_seed.py's tables and gunicorn on 127.0.0.1:8640:

    .venv/bin/python bench/phone_pages.py --base http://127.0.0.1:8640 \
        --tables 5,6,7,50 --replay 35 --runs 3 [--against http://127.0.0.1:8641]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "fibbers-demo"  # the demo players' (README)
FAST_3G = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
KINDS = {
    "Document": "html",
    "Stylesheet": "css",
    "Script": "js",
    "Font": "font",
    "Image": "image",
}

PAINT = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const blocking = performance.getEntriesByType("resource")
    .filter(r => r.renderBlockingStatus === "blocking").map(r => new URL(r.name).pathname);
  return {
    response_start_ms: Math.round(nav.responseStart),
    fcp_ms: fcp ? Math.round(fcp.startTime) : null,
    dcl_ms: Math.round(nav.domContentLoadedEventEnd),
    load_ms: Math.round(nav.loadEventEnd),
    form_ms: window.__formSeen === undefined ? null : Math.round(window.__formSeen),
    blocking: blocking,
  };
}"""

# When the move form is in the document (parsed): painted once the stylesheets are in too.
FORM_WATCH = """
new MutationObserver(function (_m, obs) {
  if (window.__formSeen === undefined && document.querySelector('form[action$="/act/"] button')) {
    window.__formSeen = performance.now();
    obs.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""


def log_in(browser: Any, base: str, username: str) -> dict[str, Any]:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill('input[name="login"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('form[action$="/accounts/login/"] button[type="submit"]')
    page.wait_for_url(f"{base}/games/")
    state = context.storage_state()
    context.close()
    return state


def who_moves(browser: Any, base: str, states: dict[str, Any], table: int) -> str:
    for name, state in states.items():
        context = browser.new_context(storage_state=state)
        page = context.new_page()
        page.goto(f"{base}/games/{table}/")
        found = page.locator('form[action$="/act/"]').count() > 0
        context.close()
        if found:
            return name
    return next(iter(states))


class Recorder:
    """Every response of one page view, from CDP's Network events."""

    def __init__(self, cdp: Any) -> None:
        self.requests: dict[str, dict[str, Any]] = {}
        cdp.on("Network.responseReceived", self.response)
        cdp.on("Network.loadingFinished", self.finished)
        cdp.on("Network.requestServedFromCache", self.cached)

    def reset(self) -> None:
        self.requests = {}

    def response(self, event: dict[str, Any]) -> None:
        r = event["response"]
        headers = {k.lower(): v for k, v in r.get("headers", {}).items()}
        self.requests[event["requestId"]] = {
            "url": r["url"],
            "kind": KINDS.get(event.get("type", ""), event.get("type", "other").lower()),
            "status": r["status"],
            "encoding": headers.get("content-encoding", ""),
            "cache_control": headers.get("cache-control", ""),
            "from_cache": bool(r.get("fromDiskCache") or r.get("fromMemoryCache")),
            "bytes": 0,
            "body": 0,
        }

    def cached(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]]["from_cache"] = True

    def finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]]["bytes"] = int(event["encodedDataLength"])

    def summary(self) -> dict[str, Any]:
        by_kind: dict[str, int] = {}
        wire = [r for r in self.requests.values() if not r["from_cache"] and r["bytes"]]
        for r in wire:
            by_kind[r["kind"]] = by_kind.get(r["kind"], 0) + r["bytes"]
        return {
            "requests": len(self.requests),
            "over_wire": len(wire),
            "bytes": sum(by_kind.values()),
            "bytes_by_kind": by_kind,
            "fetched": sorted(
                f"{r['url'].split('://', 1)[-1].split('/', 1)[-1]} {r['bytes']}"
                f"{' ' + r['encoding'] if r['encoding'] else ''}"
                for r in wire
            ),
        }


def unused(cdp: Any, sheets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Per stylesheet and script of the site: the share of its bytes the page never used."""
    shares: dict[str, Any] = {}
    css = cdp.send("CSS.stopRuleUsageTracking")["ruleUsage"]
    used_css: dict[str, int] = {}
    for rule in css:
        if rule["used"]:
            used_css[rule["styleSheetId"]] = used_css.get(rule["styleSheetId"], 0) + int(
                rule["endOffset"] - rule["startOffset"]
            )
    for sheet_id, sheet in sheets.items():
        if "/static/" in sheet["url"] and sheet["length"]:
            name = sheet["url"].rsplit("/", 1)[-1]
            shares[name] = round(1 - used_css.get(sheet_id, 0) / sheet["length"], 2)
    for script in cdp.send("Profiler.takePreciseCoverage")["result"]:
        if "/static/" not in script["url"]:
            continue
        ranges = [r for f in script["functions"] for r in f["ranges"]]
        if not ranges:
            continue
        size = max(r["endOffset"] for r in ranges)
        # the outermost range is the whole script; a count-0 range inside it never ran
        dead = sum(r["endOffset"] - r["startOffset"] for r in ranges if r["count"] == 0)
        shares[script["url"].rsplit("/", 1)[-1]] = round(dead / size, 2) if size else 0
    return shares


def measure(browser: Any, base: str, state: Any, path: str) -> dict[str, Any]:
    context = browser.new_context(
        storage_state=state,
        viewport={"width": 390, "height": 844},
        device_scale_factor=3,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
    )
    context.add_init_script(FORM_WATCH)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    recorder = Recorder(cdp)
    sheets: dict[str, dict[str, Any]] = {}
    cdp.on(
        "CSS.styleSheetAdded",
        lambda e: sheets.__setitem__(
            e["header"]["styleSheetId"],
            {"url": e["header"].get("sourceURL", ""), "length": int(e["header"].get("length", 0))},
        ),
    )
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", FAST_3G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    cdp.send("CSS.startRuleUsageTracking")
    cdp.send("Profiler.enable")
    cdp.send("Profiler.startPreciseCoverage", {"callCount": True, "detailed": True})
    started = time.perf_counter()
    page.goto(f"{base}{path}", wait_until="load")
    page.wait_for_timeout(300)
    cold = {**recorder.summary(), **page.evaluate(PAINT), "wall_ms": 0}
    cold["wall_ms"] = round((time.perf_counter() - started) * 1000)
    cold["unused"] = unused(cdp, sheets)
    html = [r for r in recorder.requests.values() if r["kind"] == "html"]
    cold["html_bytes"] = html[0]["bytes"] if html else None
    cold["html_body_bytes"] = len(page.content().encode())
    cold["static_cache_control"] = sorted(
        {r["cache_control"] for r in recorder.requests.values() if "/static/" in r["url"]}
    )
    if path.startswith("/games/") and path.rstrip("/").split("/")[-1].isdigit():
        cold["refresh"] = refresh(page, recorder)
    recorder.reset()
    # the repeat visit: another link to the same page (a navigation, not a reload: a reload
    # revalidates everything)
    page.goto(f"{base}/games/rules/cockroach-poker-royal/", wait_until="load")
    recorder.reset()
    page.goto(f"{base}{path}", wait_until="load")
    page.wait_for_timeout(300)
    warm = {**recorder.summary(), **page.evaluate(PAINT)}
    context.close()
    return {"page": path, "cold": cold, "repeat": warm}


def refresh(page: Any, recorder: Recorder) -> list[str]:
    """A table page's refresh of its live parts with nothing new (what a reconnect, a wake-up
    or a ping that changed nothing for this seat costs): the page's script fetches them when
    the phone comes back online. Status and bytes over the wire (headers and body)."""
    recorder.reset()
    with page.expect_response(lambda r: r.url.endswith("/live/")):
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(300)
    return [
        f"{r['status']} {r['bytes']}" for r in recorder.requests.values() if "/live/" in r["url"]
    ]


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The first run's bytes and lists, with each time the median of the runs'."""
    first = runs[0]
    for view in ("cold", "repeat"):
        for figure in ("fcp_ms", "dcl_ms", "load_ms", "form_ms"):
            values = sorted(r[view][figure] for r in runs if r[view][figure] is not None)
            first[view][figure] = values[len(values) // 2] if values else None
    first["runs"] = len(runs)
    return first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="http://127.0.0.1:8640")
    parser.add_argument(
        "--against",
        default="",
        help="a second server (the same database): its runs alternate with --base's, so a "
        "machine busy with other work weighs on both alike; a line for each",
    )
    parser.add_argument("--tables", default="", help="table ids, comma separated")
    parser.add_argument("--replay", default="", help="a finished table's id")
    parser.add_argument("--engines", default="cockroach-poker-royal,imperador,mogel-motte")
    parser.add_argument("--only", default="", help="only these paths, comma separated")
    parser.add_argument("--runs", type=int, default=1, help="cold loads per page: medians")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    bases = [args.base, *([args.against] if args.against else [])]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        states = {
            base: {name: log_in(browser, base, name) for name in ("alice", "bob", "carol")}
            for base in bases
        }
        pages: list[tuple[str, str]] = [("", "/"), ("", "/accounts/login/"), ("alice", "/games/")]
        for table in filter(None, args.tables.split(",")):
            pages.append(
                (who_moves(browser, args.base, states[args.base], int(table)), f"/games/{table}/")
            )
        if args.replay:
            pages.append(("alice", f"/games/{args.replay}/replay/"))
        pages += [("", f"/games/rules/{slug}/") for slug in args.engines.split(",")]
        pages += [("alice", "/notifications/"), ("alice", "/friends/")]
        for who, path in pages:
            if args.only and path not in args.only.split(","):
                continue
            runs: dict[str, list[dict[str, Any]]] = {base: [] for base in bases}
            for k in range(args.runs):
                for base in bases if k % 2 == 0 else bases[::-1]:
                    state = states[base][who] if who else None
                    runs[base].append(measure(browser, base, state, path))
            for base in bases:
                print(json.dumps({"base": base, **median_of(runs[base])}), flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
