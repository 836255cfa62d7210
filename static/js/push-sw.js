// Fibbers' service worker, served at /push-sw.js (scope: the whole site). It only shows web
// push notifications: a push carries what the in-app notice says (title, sentence, link to the
// table) and never a card. Clicking focuses an open tab of that table, or opens one.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function sameOrigin(url) {
  try {
    var target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (e) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", function (event) {
  var data = {};
  if (event.data) {
    try { data = event.data.json(); } catch (e) { data = { body: event.data.text() }; }
  }
  var options = {
    body: data.body || "",
    data: { url: sameOrigin(data.url) },
  };
  if (data.tag) { options.tag = data.tag; options.renotify = true; }
  // a Persian sentence may open with a Latin name: "auto" would lay it out left to right
  if (data.dir === "rtl" || data.dir === "ltr") options.dir = data.dir;
  if (data.lang) options.lang = data.lang;
  event.waitUntil(self.registration.showNotification(data.title || "Fibbers", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = sameOrigin(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
      for (var i = 0; i < tabs.length; i++) {
        var tab = tabs[i];
        if (new URL(tab.url).pathname === new URL(url).pathname && "focus" in tab) return tab.focus();
      }
      return self.clients.openWindow ? self.clients.openWindow(url) : undefined;
    })
  );
});
