// The table, live. Progressive enhancement: without this script every part of the page still
// works by plain forms and reloads.
//
// - The socket only says "your revision is now N" (it carries the seat's payload, which this
//   script does not need); when N grew, the script fetches the seat's own rendering of the
//   table's parts (/games/<id>/live/) and swaps only the parts whose signature changed.
// - An open form whose choices did not change is kept as it is (its radios, its open
//   <details>); when a form the player was using changed, the panel says so.
// - A click on a control swapped in less than GUARD_MS ago is ignored, so a click aimed at the
//   old buttons never lands on new ones (controls that stayed keep working: a race's button).
// - Focus that was in a swapped part moves to the same control, else to the part's heading
//   (a screen reader would otherwise start again at the top); the status is read out.
// - The clock counts down from the stored deadline, corrected by the server's time.
(function () {
  "use strict";
  var root = document.getElementById("live-root");
  if (!root) return;
  var GUARD_MS = 400;
  // While a window is open the page beats faster: a ping lost under socket churn (design.md)
  // then costs seconds, not a whole beat, in the moments when seconds decide.
  var BEAT_MS = 20000, WINDOW_BEAT_MS = 5000, lastBeat = 0;
  // A beat or hello the server has not answered this long: the socket is a ghost (a phone that
  // changed networks keeps a dead connection that neither closes nor carries anything).
  var SILENT_MS = 12000, lastHeard = 0;
  var LONG_SLEEP_MS = 30000;
  var OFFLINE_AFTER_MS = 4000; // a reload or a restart reconnects within it, unsaid
  var L = { yourTurn: root.dataset.lYourTurn, left: root.dataset.lLeft, changed: root.dataset.lChanged, hurry: root.dataset.lHurry };
  var HURRY_MS = 10000, hurried = ""; // the deadline already said to be near
  var offset = parseInt(root.dataset.now, 10) - Date.now(); // server clock minus ours
  var revision = parseInt(root.dataset.revision, 10);
  var SWAPPED = "swappedAt"; // a property set on nodes swapped in, with the time
  var focusPart = null, pressed = null; // where a posted form was: focus goes back there
  var moving = null, MOVE_ANSWER_MS = 20000; // the move form whose answer is awaited
  var announced = "", heard = []; // the status line and the history entries last read out
  var saying = {}; // per region, words not shown yet (say waits 50 ms)
  var READ_AT_MOST = 3; // history entries read out at once, the newest ones
  var fetching = false, again = false, expiredAsked = false, noteAsked = "";
  var baseTitle = document.title;
  var wasWanted = root.dataset.wanted;

  function topParts(scope) {
    return Array.prototype.filter.call(scope.querySelectorAll("[data-live]"), function (el) {
      var up = el.parentElement && el.parentElement.closest("[data-live]");
      return !up || !scope.contains(up);
    });
  }

  function notice(part) {
    var note = document.createElement("p");
    note.className = "notice changed";
    note.textContent = L.changed;
    part.insertBefore(note, part.firstChild);
    say(L.changed, true); // a region inserted with its words already in is not read out
  }

  // A kept part takes the new render's idempotency keys: a key names one move, and the same
  // buttons in the next window make another (same signature, same forms: keys pair in order).
  function freshKeys(oldPart, newPart) {
    var keys = newPart.querySelectorAll('input[name="key"]');
    Array.prototype.forEach.call(oldPart.querySelectorAll('input[name="key"]'), function (input, i) {
      if (keys[i]) input.value = keys[i].value;
    });
  }

  function swapMoves(oldPart, newPart) {
    // Keep every action group whose signature did not change: the very same nodes, with the
    // player's selection in them.
    Array.prototype.forEach.call(newPart.querySelectorAll("[data-live]"), function (fresh) {
      var old = oldPart.querySelector('[data-live="' + fresh.dataset.live + '"]');
      if (!old || old.dataset.sig !== fresh.dataset.sig) return;
      freshKeys(old, fresh);
      fresh.replaceWith(old);
    });
    var affected = Array.prototype.some.call(oldPart.querySelectorAll("[data-touched]"), function (old) {
      return !newPart.contains(old);
    });
    if (affected) notice(newPart);
    oldPart.replaceWith(newPart);
  }

  function markSwapped(node) {
    var now = Date.now();
    node[SWAPPED] = now;
    Array.prototype.forEach.call(node.querySelectorAll("[data-live]"), function (el) { el[SWAPPED] = now; });
  }
  function justSwapped(el) {
    var part = el.closest("[data-live]");
    return !!part && Date.now() - (part[SWAPPED] || 0) < GUARD_MS;
  }

  function focusable(el) {
    return el.matches("a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select, textarea, summary, [tabindex]");
  }
  // Focus back in the part it was in: the same control if it is still there (the very node,
  // kept, or one with its id), else the part's first heading, else the part itself.
  function restoreFocus(name, was) {
    var part = root.querySelector('[data-live="' + name + '"]');
    if (!part) return;
    var target = null;
    if (was && was.isConnected && part.contains(was)) target = was; // its form was kept
    else if (was && was.id) target = document.getElementById(was.id);
    if (target && (!part.contains(target) || target.disabled)) target = null;
    if (!target) target = part.querySelector("h2, h3") || part;
    if (target.offsetParent === null && target !== part) target = part;
    // an emptied part or a visually hidden heading: focus nobody sees, and nothing is read
    if (target.getBoundingClientRect().height < 2) target = document.getElementById("status") || target;
    if (!focusable(target)) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }

  function statusText() {
    var status = document.getElementById("status");
    if (!status) return "";
    var copy = status.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll(".clock"), function (c) { c.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  // The history's entries, newest first, as words and as a signature (words and time): what
  // just happened (a call's outcome, a bot's offer) is news even when the status line reads the
  // same ("Your turn" again), and a refresh that brings two moves (a bot answering at once)
  // brings two pieces of news.
  function history() {
    return Array.prototype.map.call(root.querySelectorAll('[data-live="history"] ol.history > li'), function (li) {
      var words = Array.prototype.map.call(li.querySelectorAll(".event"), function (p) {
        return p.textContent.replace(/\s+/g, " ").trim();
      }).join(" ");
      return { words: words, sig: li.textContent.replace(/\s+/g, " ").trim() };
    });
  }
  // How many of the entries ``now`` shows come before those ``before`` began with: the first
  // place where a few entries in a row read as ``before``'s first ones (one alone may repeat:
  // "vic passes." twice in a minute).
  function newEntries(now, before) {
    if (!before.length) return now.length;
    for (var n = 0; n < now.length; n++) {
      var m = Math.min(before.length, now.length - n, 4), same = true;
      for (var i = 0; i < m && same; i++) same = now[n + i] === before[i];
      if (same) return n;
    }
    return Math.min(now.length, 1); // nothing in common (the log was cut): the newest
  }
  function say(text, urgent) {
    var id = urgent ? "table-alert" : "table-announce";
    var region = document.getElementById(id);
    if (!region || !text) return;
    // words still waiting for their 50 ms go with these: replaced, they were never shown
    if (saying[id]) { clearTimeout(saying[id].timer); text = saying[id].text + " " + text; }
    region.textContent = "";
    var pending = { text: text };
    pending.timer = setTimeout(function () { // the same words again are news
      if (saying[id] === pending) delete saying[id];
      region.textContent = text;
    }, 50);
    saying[id] = pending;
  }
  // Empties a region of words said earlier; words this very refresh queued stay ("The game
  // moved on while you were choosing", said as the window closed under the player's choice).
  function hush(id) {
    if (saying[id]) return;
    var region = document.getElementById(id);
    if (region) region.textContent = "";
  }
  function announce(urgent) {
    var text = statusText(), entries = history();
    var sigs = entries.map(function (e) { return e.sig; });
    var fresh = entries.slice(0, Math.min(newEntries(sigs, heard), READ_AT_MOST));
    var news = fresh.reverse().map(function (e) { return e.words; }).filter(Boolean);
    if (text && (text !== announced || urgent)) news.push(text);
    heard = sigs;
    if (text) announced = text;
    if (news.length) say(news.join(" "), urgent);
  }

  function apply(html, movedOn) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("live-root");
    if (!fresh) return;
    var rev = parseInt(fresh.dataset.revision, 10);
    if (rev < revision) return; // an answer older than what we show
    if (movedOn && rev > revision) {
      // the table moved on without this page's doing: "Move played.", "You took a seat."
      // told of an earlier moment and stood there until the end of the game
      var said = document.querySelector(".messages");
      if (said) said.textContent = "";
    }
    // the talk is no live part (a line being typed must survive); it appears, or goes, when
    // the viewer takes (or leaves) a seat in the lobby, and is another when the channel they
    // read changes (a player who left a table whose spectators talk among themselves)
    var freshSlot = fresh.querySelector("#chat-slot"), slot = document.getElementById("chat-slot");
    if (freshSlot && slot && (slot.hidden !== freshSlot.hidden || slot.dataset.channel !== freshSlot.dataset.channel)) {
      slot.replaceWith(document.importNode(freshSlot, true));
    }
    var active = pressed || document.activeElement, lostFocus = focusPart;
    focusPart = null;
    pressed = null;
    topParts(fresh).forEach(function (part) {
      var old = root.querySelector('[data-live="' + part.dataset.live + '"]');
      if (!old) return;
      if (old.dataset.sig === part.dataset.sig) { freshKeys(old, part); return; }
      if (old.contains(active)) lostFocus = part.dataset.live;
      var node = document.importNode(part, true);
      markSwapped(node);
      if (part.dataset.live === "moves") swapMoves(old, node);
      else old.replaceWith(node);
    });
    if (lostFocus && (!document.activeElement || document.activeElement === document.body || !root.contains(document.activeElement))) {
      restoreFocus(lostFocus, active);
    }
    ["revision", "tag", "version", "now", "wanted", "present", "window"].forEach(function (key) {
      root.dataset[key] = fresh.dataset[key];
    });
    revision = rev;
    offset = parseInt(fresh.dataset.now, 10) - Date.now();
    // Kept forms play at the current version: their choices are the same as the new ones'.
    Array.prototype.forEach.call(root.querySelectorAll('input[name="version"]'), function (input) {
      input.value = fresh.dataset.version;
    });
    expiredAsked = false;
    var before = wasWanted;
    wanted();
    // the urgent region speaks of a window (or of a clock's last seconds): once that is over
    // it is emptied, or a virtual cursor still found "Your answer is wanted" there after the
    // game had ended
    var now = root.dataset.wanted;
    if (now !== "window" && (before === "window" || !now)) hush("table-alert");
    announce(root.dataset.wanted === "window" && before !== "window");
    tick();
  }

  // The parts shown name their validator (data-tag: this viewer's revision, language, who is
  // here...): nothing new since is answered 304 without a body (games/live_tag.py), where
  // every refresh (a ping, a reconnect, a wake-up) used to fetch the whole 12–24 KB again.
  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    var headers = root.dataset.tag ? { "If-None-Match": root.dataset.tag } : {};
    fetch(root.dataset.fragments, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (r) { return r.ok ? r.text() : null; }) // a 304 is not ok: nothing to swap
      .then(function (html) { if (html) apply(html, true); })
      .catch(function () {})
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }

  // --- the clock, the title, the sound ---------------------------------------------------
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function fmt(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(x) : m + ":" + pad(x);
  }
  function tick() {
    var now = Date.now() + offset;
    Array.prototype.forEach.call(root.querySelectorAll("time.countdown[data-deadline]"), function (t) {
      var left = parseInt(t.dataset.deadline, 10) - now;
      if (left < 86400000) t.textContent = L.left.replace("__LEFT__", fmt(left)); // longer: the server's words
      t.classList.toggle("urgent", left <= HURRY_MS);
      // the player's own move, nearly out of time: said once, in words (a clock is silent)
      if (root.dataset.wanted && left <= HURRY_MS && left > 0 && hurried !== t.dataset.deadline) {
        hurried = t.dataset.deadline;
        say(L.hurry, true);
      }
      // The deadline passed and no ping came (yet): ask; the page applies an expired wait.
      if (left < -2000 && !expiredAsked) { expiredAsked = true; refresh(); }
    });
    // A note that gives way at a time (proposing the Live pace again): fetch the parts then,
    // once per time (a clock a little ahead of the server's is answered 304: asked again later).
    var note = root.querySelector("[data-refresh-at]");
    var ask = note && note.dataset.refreshAt + ":" + Math.floor(now / 15000);
    if (note && now > parseInt(note.dataset.refreshAt, 10) + 1000 && noteAsked !== ask) {
      noteAsked = ask;
      refresh();
    }
  }
  setInterval(tick, 250);

  var toggle = document.getElementById("sound-toggle");
  if (toggle) {
    toggle.closest(".sound-toggle").hidden = false;
    try { toggle.checked = localStorage.getItem("fibbers.sound") === "1"; } catch (e) {}
    toggle.addEventListener("change", function () {
      try { localStorage.setItem("fibbers.sound", toggle.checked ? "1" : "0"); } catch (e) {}
    });
  }
  function beep() {
    if (!toggle || !toggle.checked) return;
    try {
      var ctx = new (window.AudioContext || window.webkitAudioContext)();
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.15);
    } catch (e) {}
  }
  function wanted() {
    var w = root.dataset.wanted;
    if (w === "window" && wasWanted !== "window") beep();
    wasWanted = w;
    document.title = w ? "(1) " + L.yourTurn + " · " + baseTitle : baseTitle;
  }

  // --- the player's hands: selections, the click guard, forms without a reload -----------
  root.addEventListener("change", function (e) {
    var group = e.target.closest('[data-live^="g-"]');
    if (group) group.dataset.touched = "1";
  });
  root.addEventListener("click", function (e) {
    if (justSwapped(e.target) && e.target.closest("button, input, label, summary, select, a")) {
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    var summary = e.target.closest("summary");
    var group = summary && summary.closest('[data-live^="g-"]');
    if (group) group.dataset.touched = "1";
  }, true);
  root.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.dataset.native) { delete form.dataset.native; return; } // the browser sends it
    if (justSwapped(form)) { e.preventDefault(); return; }
    // sent already (a form that leaves the page, below): not even asked again
    if (form.dataset.away && form.dataset.sent) { e.preventDefault(); return; }
    // a form that asks first (Cancel): confirm() here stands for the server's confirmation page
    if (form.dataset.confirm) {
      if (!window.confirm(form.dataset.confirm)) { e.preventDefault(); return; }
      if (!form.querySelector('input[name="confirmed"]')) {
        var confirmed = document.createElement("input");
        confirmed.type = "hidden"; confirmed.name = "confirmed"; confirmed.value = "1";
        form.appendChild(confirmed);
      }
    }
    // A form that leaves the table (leave, decline, cancel, rematch) is sent by the browser:
    // fetched, its redirect was followed and its page's one-time message spent, then the
    // page loaded again without it ("You left the table" never showed).
    if (form.dataset.away) {
      // ... once: a double click posted it twice ("You left the table" and then "You are
      // not playing at this table"); the page is leaving, a second press has nothing to add
      form.dataset.sent = "1";
      setTimeout(function () { delete form.dataset.sent; }, MOVE_ANSWER_MS);
      return;
    }
    if (!window.fetch || !window.FormData || (form.method || "").toLowerCase() !== "post") return;
    e.preventDefault();
    // One move at a time: a second button pressed before the first move's answer (a thumb
    // that slid) was posted too, and its "Too late" replaced the first's "Move played.".
    var isMove = /\/act\/$/.test(new URL(form.action, location.href).pathname);
    if (isMove && moving) return;
    // Offline (a phone between networks): nothing is sent, and the page says so. The browser
    // posting it itself left the table for its own "No internet" page, the move lost.
    if (navigator.onLine === false) { refused(form, root.dataset.lOffline); return; }
    Array.prototype.forEach.call(root.querySelectorAll("[data-touched]"), function (g) {
      delete g.dataset.touched;
    });
    var data = new FormData(form);
    if (e.submitter && e.submitter.name) data.append(e.submitter.name, e.submitter.value);
    // a line of talk leaves the box at once (ready for the next); it comes back if refused
    var talk = form.classList.contains("chat-form") ? form.querySelector('input[name="text"]') : null;
    var typed = talk ? talk.value : "";
    if (talk) talk.value = "";
    var home = form.closest("[data-live]");
    while (home && home.parentElement && home.parentElement.closest("[data-live]")) home = home.parentElement.closest("[data-live]");
    focusPart = home ? home.dataset.live : null; // disabling the pressed button drops its focus
    pressed = e.submitter || form.querySelector("button");
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = true; });
    if (isMove) {
      moving = form;
      // an answer that never comes must not leave every move button dead until a reload
      setTimeout(function () { if (moving === form) moving = null; }, MOVE_ANSWER_MS);
    }
    fetch(form.action, { method: "POST", body: data, credentials: "same-origin" })
      .then(function (r) {
        // refused before any view (a flood's 429, a body too large): one plain line; the page
        // stays, with what the player chose or typed
        if (!r.ok && (r.headers.get("Content-Type") || "").indexOf("text/plain") === 0) {
          return r.text().then(function (line) {
            refused(form, line);
            if (talk && !talk.value) talk.value = typed;
            return null;
          });
        }
        // the proxy's answer while the server restarts or hangs (502, 503, 504): the page
        // stays, says so and shows the table as it is (it left for a bare "Bad Gateway")
        if (r.status >= 502 && r.status <= 504) {
          refused(form, root.dataset.lUnreachable);
          if (talk && !talk.value) talk.value = typed;
          refresh();
          return null;
        }
        var path = new URL(r.url).pathname;
        if (path === root.dataset.login) {
          // Signed out meanwhile: the browser posts the move itself, so that the server keeps
          // it and the sign-in page it opens says why (this fetch has read that message).
          Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = false; });
          form.dataset.native = "1";
          if (form.requestSubmit) form.requestSubmit(e.submitter || undefined); else form.submit();
          return null;
        }
        if (path !== location.pathname) { location.href = r.url; return null; }
        return r.text();
      })
      .then(function (html) {
        if (isMove) moving = null; // the page shows its answer next: new forms, kept ones live
        if (html === null) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        // the same live region, new words: a region inserted anew is not read out
        var fresh = doc.querySelector(".messages"), old = document.querySelector(".messages");
        if (old) old.innerHTML = fresh ? fresh.innerHTML : "";
        Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = false; });
        apply(html);
        if (talk) chatSent(talk, typed, doc);
        // a mute (or unmute) from a line's menu: that player's lines leave (or come back) now
        else if (form.closest("#chat-slot")) refreshChat();
      })
      .catch(function () {
        // no answer at all (the connection dropped on the way): the page stays, says so and
        // shows the table as the server has it once it can (the browser posting the form
        // itself only led to its own error page); the form's key makes a second press safe
        if (isMove) moving = null;
        refused(form, root.dataset.lUnreachable);
        if (talk && !talk.value) talk.value = typed;
        refresh();
      });
  });

  // --- the socket -------------------------------------------------------------------------
  var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/games/" + root.dataset.game + "/";
  var socket = null, delay = 1000, beat = null, retry = null, hiddenAt = null;
  function send(obj) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(obj)); }
  function connect() {
    clearTimeout(retry);
    socket = new WebSocket(url);
    socket.onopen = function () {
      delay = 1000;
      connected(true);
      // what we hold: the server sends anything newer, and says if the talk has a line newer
      // than ours (one posted before this socket was in the table's group reached no ping)
      send({ type: "hello", revision: revision, chat: newestLine() });
      lastBeat = lastHeard = Date.now();
      beat = setInterval(function () {
        if (lastHeard < lastBeat && Date.now() - lastBeat > SILENT_MS) { drop(); return; }
        var due = root.dataset.window ? WINDOW_BEAT_MS : BEAT_MS;
        if (Date.now() - lastBeat < due - 250) return;
        lastBeat = Date.now();
        send({ type: "heartbeat" });
      }, WINDOW_BEAT_MS);
    };
    socket.onmessage = function (msg) {
      lastHeard = Date.now();
      var data = JSON.parse(msg.data);
      if (data.type === "chat") { refreshChat(); return; }
      if (data.type === "state" && typeof data.now === "number") offset = Math.round(data.now * 1000) - Date.now();
      if (typeof data.revision === "number" && data.revision > revision) refresh();
      if (data.present && data.present.join(",") !== root.dataset.present) showPresent(data.present);
    };
    socket.onclose = function (event) {
      clearInterval(beat);
      socket = null;
      if (event.code === 4404 || event.code === 4401) return; // gone, or signed out
      connected(false);
      retry = setTimeout(connect, delay + Math.random() * delay / 2);
      delay = Math.min(delay * 2, 30000);
    };
  }
  // A ghost is let go (its close would wait on the dead connection) and a new socket opened:
  // its hello brings the page up to date.
  function drop() {
    var ghost = socket;
    clearInterval(beat);
    socket = null;
    if (ghost) {
      ghost.onclose = ghost.onmessage = null;
      try { ghost.close(); } catch (e) {}
    }
    connected(false);
    delay = 1000;
    connect();
  }
  // Ask the server where the table is; an answer that does not come shows a ghost.
  function hello() {
    if (!socket || socket.readyState !== 1) return;
    if (lastHeard >= lastBeat) lastBeat = Date.now();
    send({ type: "hello", revision: revision, chat: newestLine() });
  }
  // Away from the server for more than a moment: the page says so (it showed the last state
  // with a running clock, as if nothing moved: an outage review); back, it catches up.
  var offlineNote = document.getElementById("connection-note"), offlineTimer = null;
  function connected(yes) {
    if (!offlineNote) return;
    if (yes) {
      clearTimeout(offlineTimer);
      offlineTimer = null;
      root.style.removeProperty("--note-h");
      if (!offlineNote.hidden) refresh();
      offlineNote.hidden = true;
    } else if (offlineNote.hidden && !offlineTimer) {
      // counted from the first close: each failed retry (1 s, 2 s, ...) must not restart it
      offlineTimer = setTimeout(function () {
        offlineTimer = null;
        offlineNote.hidden = false;
        // the pinned clock sits just below the (sticky) note instead of under it
        root.style.setProperty("--note-h", offlineNote.getBoundingClientRect().height + "px");
      }, OFFLINE_AFTER_MS);
    }
  }
  // Who is at the table, as the socket's beat says it: the players' list is marked in place.
  // It was a full refresh of the parts (12–24 KB) for every viewer whenever anyone opened or
  // left the page; the parts' validator leaves presence out (games/live_tag.py) but for
  // whether everyone is here, which offers the Live pace: that alone still fetches them.
  function showPresent(present) {
    var here = present.map(String), list = root.querySelector("ol.players");
    root.dataset.present = here.join(",");
    if (!list) return;
    var people = 0, everyone = true, before = true;
    Array.prototype.forEach.call(list.querySelectorAll("li[data-seat]"), function (li) {
      var dot = li.querySelector(".dot"), on = here.indexOf(li.dataset.seat) >= 0;
      var said = li.querySelector(".here-said");
      if (dot) {
        people += 1;
        before = before && li.classList.contains("here");
        everyone = everyone && on;
        dot.title = on ? root.dataset.lHere : root.dataset.lAway;
      }
      li.classList.toggle("here", on);
      li.classList.toggle("away", !on && !!dot);
      if (on && !said) {
        said = document.createElement("span");
        said.className = "visually-hidden here-said";
        said.textContent = "(" + root.dataset.lHere + ")";
        var note = li.querySelector(".muted"); // "(away until ...)" stays last
        li.insertBefore(document.createTextNode(" "), note);
        li.insertBefore(said, note);
      } else if (!on && said) {
        if (said.previousSibling && said.previousSibling.nodeType === 3) said.previousSibling.textContent = said.previousSibling.textContent.replace(/ $/, "");
        said.remove();
      }
    });
    // marked here, the list is not what its signature says: the next refresh swaps it whole
    var part = list.closest("[data-live]");
    if (part) part.dataset.sig = "";
    if (people && everyone !== before) refresh();
  }
  // Table talk changed: fetch the talk this reader may see and merge its lines into the list
  // (a log region: only the lines added are read out). The form is left alone, so a player
  // typing keeps their words and their focus.
  var chatAsked = 0; // an older answer arriving last must not take the newest line away
  function newestLine() {
    var newest = 0;
    document.querySelectorAll("#chat-slot ol.chat-lines li[data-id]").forEach(function (li) {
      newest = Math.max(newest, parseInt(li.dataset.id, 10) || 0);
    });
    return newest;
  }
  function refreshChat() {
    var slot = document.getElementById("chat-slot");
    if (!slot || !window.fetch) return;
    var asked = ++chatAsked;
    fetch(slot.dataset.chat, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html || asked !== chatAsked) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("ol.chat-lines");
        var list = slot.querySelector("ol.chat-lines");
        if (fresh && list) mergeLines(list, fresh);
      })
      .catch(function () {});
  }
  // Lines shown stay the very nodes (not read out again, their menus as they were); lines
  // gone (hidden, muted) leave; new ones go in the fresh list's order, each after the line
  // before it (a line coming back, unmuted or unhidden, is not put after newer ones). Lines
  // are numbered per channel: another channel's list is another list.
  function mergeLines(list, fresh) {
    if (list.dataset.channel !== fresh.dataset.channel) { list.replaceWith(document.importNode(fresh, true)); return; }
    var wanted = {}, shown = {};
    Array.prototype.forEach.call(fresh.children, function (li) { if (li.dataset.id) wanted[li.dataset.id] = true; });
    Array.prototype.slice.call(list.children).forEach(function (li) {
      if (!li.dataset.id || !wanted[li.dataset.id]) li.remove(); // or "nothing said yet"
      else shown[li.dataset.id] = li;
    });
    var before = null; // the last line placed, in the fresh list's order
    Array.prototype.forEach.call(fresh.children, function (li) {
      if (!li.dataset.id) { if (!list.children.length) list.appendChild(document.importNode(li, true)); return; }
      var node = shown[li.dataset.id];
      if (!node) {
        node = document.importNode(li, true);
        list.insertBefore(node, before ? before.nextSibling : list.firstChild);
      }
      before = node;
    });
  }
  function refused(form, line) {
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = false; });
    var region = document.querySelector(".messages");
    if (!region) return;
    var p = document.createElement("p");
    p.className = "message error";
    p.textContent = line;
    region.textContent = "";
    region.appendChild(p);
  }
  // A line sent: the page stays, the list shows it, focus stays in the box; a line the
  // server refused (too long, too fast) is given back to be mended.
  function chatSent(talk, typed, doc) {
    if (doc.querySelector(".messages .error") && !talk.value) talk.value = typed;
    talk.focus({ preventScroll: true });
    refreshChat();
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { hiddenAt = Date.now(); return; }
    var slept = hiddenAt !== null && Date.now() - hiddenAt > LONG_SLEEP_MS;
    hiddenAt = null;
    if (!socket) { delay = 1000; connect(); }
    else hello();
    if (slept) refresh(); // a phone that woke up: its socket may be a ghost
  });
  // Back online (a phone out of a tunnel, onto mobile data): catch up now, and reconnect now
  // rather than at the end of a backoff that may have grown to 30 s while away.
  window.addEventListener("online", function () {
    refresh();
    if (!socket && window.WebSocket) { delay = 1000; connect(); }
    else hello();
  });
  wanted();
  tick();
  announced = statusText(); // what the page said when it loaded is not news
  heard = history().map(function (e) { return e.sig; });
  if (window.WebSocket) connect();
})();
