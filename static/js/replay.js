// The reveal replay: the arrow keys follow the page's own Previous / Next links (which work
// without this script); Home and End the first and last step while the steps have focus. Right-to-left pages step the other way, as their links are laid out.
(function () {
  "use strict";
  var nav = document.querySelector("[data-replay]");
  if (!nav) return;
  // Each step is a page of its own: the step link pressed (or the arrow key's) has focus
  // again on the new page, not the page's start a dozen Tabs away (at the first or last step,
  // where that link is gone, the step count has it).
  var PRESSED = "fibbers.replay.pressed";
  function remember(which) {
    try { sessionStorage.setItem(PRESSED, location.pathname + "|" + which); } catch (e) {}
  }
  try {
    var pressed = (sessionStorage.getItem(PRESSED) || "").split("|");
    sessionStorage.removeItem(PRESSED);
    if (pressed[0] === location.pathname && pressed[1]) {
      var again = nav.querySelector('[data-step="' + pressed[1] + '"]') || nav.querySelector(".step-count");
      if (!again.hasAttribute("href")) again.setAttribute("tabindex", "-1");
      again.focus();
    }
  } catch (e) {}
  nav.addEventListener("click", function (event) {
    var link = event.target.closest("[data-step]");
    if (link) remember(link.dataset.step);
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    var rtl = document.documentElement.dir === "rtl";
    var forward = { ArrowRight: !rtl, ArrowLeft: rtl, Home: null, End: null }[event.key];
    var which;
    // Home and End stay the page's own (to the top, to the bottom) unless the steps have focus
    var inNav = target && nav.contains(target);
    if (event.key === "Home") { if (!inNav) return; which = "first"; }
    else if (event.key === "End") { if (!inNav) return; which = "last"; }
    else if (forward === true) which = "next";
    else if (forward === false) which = "prev";
    else return;
    var link = nav.querySelector('[data-step="' + which + '"]');
    if (!link) return;
    event.preventDefault();
    if (inNav) remember(which);
    window.location.assign(link.href);
  });
})();
