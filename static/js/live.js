// The player's own socket, on every page once signed in: its heartbeat shows them online to
// their friends, and when their lists (My games, invitations) change it says so with a new
// stamp; parts marked data-live-src whose data-stamp differs are fetched and swapped in place,
// and the bell takes the unread count the message carries.
(function () {
  "use strict";
  if (!window.WebSocket || !window.fetch || document.body.dataset.user !== "1") return;
  // A table's page names its table: its bell never counts that table's notices (the page shows
  // them, and its refresh reads them; counted first, a wait opening there flashed "1").
  var table = document.getElementById("live-root");
  var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/me/" +
    (table && table.dataset.game ? "?table=" + encodeURIComponent(table.dataset.game) : "");
  var delay = 1000, beat = null, socket = null;
  function refresh(stamp) {
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-src]"), function (part) {
      if (part.dataset.stamp === stamp) return;
      fetch(part.dataset.liveSrc, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) return;
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById(part.id);
          if (!fresh) return;
          var had = part.contains(document.activeElement) ? document.activeElement : null;
          var nth = had ? sameAs(part, had).indexOf(had) : 0;
          var section = had && had.closest("section[aria-labelledby]");
          var heading = section ? section.getAttribute("aria-labelledby") : "";
          var node = document.importNode(fresh, true);
          part.replaceWith(node);
          if (had) refocus(node, had, nth, heading);
        })
        .catch(function () {});
    });
  }
  // Focus that was in a list swapped in goes to the same link or button in the new one (by
  // where it leads; the n-th of equals), else to the heading of the section it was in:
  // never back to the top of the page.
  function key(el) {
    var form = el.form || el.closest("form");
    return el.tagName + "|" + (el.getAttribute("href") || "") + "|" + (form ? form.getAttribute("action") : "") + "|" + (el.value || "") + "|" + el.textContent.trim();
  }
  function sameAs(scope, el) {
    var wanted = key(el);
    return Array.prototype.filter.call(scope.querySelectorAll("a[href], button, input, select, summary"), function (other) {
      return key(other) === wanted;
    });
  }
  function refocus(node, had, nth, heading) {
    var same = sameAs(node, had);
    same = same[Math.min(nth, same.length - 1)] || null;
    var target = same || (heading && document.getElementById(heading)) || node.querySelector("h2, h3") || node;
    if (!same && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }
  // The bell's count as the socket says it: the page drew it once, and an invitation to
  // another table never showed on the bell of the table a phone stood on.
  function bell(unread) {
    var link = document.querySelector(".bell[data-label]");
    if (!link || !Number.isInteger(unread)) return;
    var badge = link.querySelector(".badge");
    if (unread && !badge) {
      badge = document.createElement("span");
      badge.className = "badge";
      link.appendChild(badge);
    }
    if (badge && unread) badge.textContent = String(unread);
    else if (badge) badge.remove();
    link.setAttribute("aria-label", unread ? link.dataset.label + link.dataset.colon + " " + unread : link.dataset.label);
  }
  function connect() {
    socket = new WebSocket(url);
    socket.onopen = function () {
      delay = 1000;
      beat = setInterval(function () { socket.send('{"type":"heartbeat"}'); }, 20000);
    };
    socket.onmessage = function (msg) {
      var data = JSON.parse(msg.data);
      if (data.type !== "lists") return;
      refresh(data.stamp);
      bell(data.unread);
    };
    socket.onclose = function (event) {
      clearInterval(beat);
      socket = null;
      if (event.code === 4403 || event.code === 4401) return; // refused, or signed out
      setTimeout(connect, delay + Math.random() * delay / 2);
      delay = Math.min(delay * 2, 30000);
    };
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !socket) { delay = 1000; connect(); }
  });
  connect();
})();
