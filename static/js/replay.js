// The reveal replay: the arrow keys follow the page's own Previous / Next links (which work
// without this script); Home and End the first and last step while the steps have focus. Right-to-left pages step the other way, as their links are laid out.
(function () {
  "use strict";
  var nav = document.querySelector("[data-replay]");
  if (!nav) return;
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
    window.location.assign(link.href);
  });
})();
