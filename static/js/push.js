// The profile's "push notifications on this device" control: subscribes this browser through
// the service worker at /push-sw.js and tells the server (accounts.views.push_subscribe), or
// unsubscribes it. Without push support (or without JavaScript) the page works as before and
// only says so.
(function () {
  "use strict";
  var box = document.getElementById("push-device");
  if (!box) return;
  var status = box.querySelector("[data-push-status]");
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  function say(key) { status.textContent = box.dataset[key] || ""; }
  if (!box.dataset.key) return; // push is off on this site: the page says so already
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window) || !window.fetch) {
    say("unsupported");
    return;
  }
  function keyBytes(base64) {
    var padded = (base64 + "===".slice((base64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf },
      body: JSON.stringify(body),
    });
  }
  function show(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    say(subscribed ? "subscribed" : "unsubscribed");
  }
  var ready = navigator.serviceWorker.register("/push-sw.js", { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  });
  ready.then(function (registration) {
    return registration.pushManager.getSubscription();
  }).then(function (subscription) {
    // a subscription the server dropped (logged out, removed from the list) is off: turning
    // it on again posts it for the player now logged in
    var known = JSON.parse(box.dataset.endpoints || "[]");
    show(!!subscription && known.indexOf(subscription.endpoint) >= 0);
  }).catch(function () { say("unsupported"); });

  on.addEventListener("click", function () {
    on.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("denied");
      return ready;
    }).then(function (registration) {
      return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) });
    }).then(function (subscription) {
      return post(box.dataset.subscribeUrl, subscription.toJSON()).then(function (response) {
        if (!response.ok) { subscription.unsubscribe(); throw new Error("refused"); }
        location.reload(); // the list of devices now shows this one
      });
    }).catch(function () { on.disabled = false; say("failed"); });
  });

  off.addEventListener("click", function () {
    off.disabled = true;
    ready.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () {
        return post(box.dataset.unsubscribeUrl, { endpoint: endpoint });
      });
    }).then(function () { location.reload(); }).catch(function () { off.disabled = false; say("failed"); });
  });
})();
