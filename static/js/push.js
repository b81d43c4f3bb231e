/* "Notify me on this phone" (templates/notifications/_push_control.html): asks the browser's
   permission, subscribes through the site's service worker (static/js/sw.js, which shows the
   notifications and opens the right page on a tap) with the site's VAPID public key, and
   gives the subscription to the server (POST /api/push/subscriptions/). "Stop notifying this
   phone" unsubscribes on both sides. No build step. */
(function () {
  "use strict";

  var box = document.querySelector(".push-control[data-key]");
  if (!box) {
    return;
  }
  var status = box.querySelector(".push-status");
  var subscribeButton = box.querySelector(".push-subscribe");
  var unsubscribeButton = box.querySelector(".push-unsubscribe");
  var token = box.querySelector("input[name=csrfmiddlewaretoken]");
  var csrf = token ? token.value : "";
  var key = box.getAttribute("data-key");

  function say(name) {
    if (status) {
      status.textContent = box.getAttribute("data-msg-" + name) || "";
    }
  }

  function show(subscribed) {
    if (subscribeButton) {
      subscribeButton.hidden = subscribed;
      subscribeButton.disabled = false;
    }
    if (unsubscribeButton) {
      unsubscribeButton.hidden = !subscribed;
      unsubscribeButton.disabled = false;
    }
    say(subscribed ? "on" : "off");
  }

  if (!key || !subscribeButton || !("serviceWorker" in navigator) || !("PushManager" in window) ||
      !("Notification" in window)) {
    say("unsupported");
    return;
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (!response.ok) {
        throw new Error("HTTP " + response.status);
      }
      return response.json();
    });
  }

  // The worker offline.js registers; registering it again here is harmless and means this
  // script does not depend on which of the two runs first.
  var ready = navigator.serviceWorker.register(box.getAttribute("data-sw"), {
    scope: box.getAttribute("data-scope") || "/"
  }).then(function () { return navigator.serviceWorker.ready; });

  function subscribe() {
    subscribeButton.disabled = true;
    say("busy");
    // Asked on the tap only: browsers refuse (or hide) a prompt the person did not ask for.
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        throw new Error("denied");
      }
      return ready;
    }).then(function (registration) {
      var options = { userVisibleOnly: true, applicationServerKey: keyBytes(key) };
      return registration.pushManager.subscribe(options).catch(function () {
        // Subscribed before with another key (the site's keys were replaced): start again.
        return registration.pushManager.getSubscription().then(function (old) {
          return old ? old.unsubscribe() : true;
        }).then(function () { return registration.pushManager.subscribe(options); });
      });
    }).then(function (subscription) {
      return post(box.getAttribute("data-subscribe"), subscription.toJSON());
    }).then(function () {
      show(true);
    }).catch(function (error) {
      show(false);
      say(Notification.permission === "denied" || String(error.message) === "denied" ? "denied" : "failed");
    });
  }

  function unsubscribe() {
    unsubscribeButton.disabled = true;
    say("busy");
    ready.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) {
        return true;
      }
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () {
        return post(box.getAttribute("data-unsubscribe"), { endpoint: endpoint });
      });
    }).then(function () {
      show(false);
    }, function () {
      show(true);
      say("failed");
    });
  }

  // The worker renews a subscription the push service replaced (sw.js, pushsubscriptionchange)
  // and needs a CSRF token for the API where it cannot read the cookie: hand it this page's.
  ready.then(function (registration) {
    if (registration.active && csrf) {
      registration.active.postMessage({ type: "push-token", token: csrf });
    }
  });

  subscribeButton.addEventListener("click", subscribe);
  unsubscribeButton.addEventListener("click", unsubscribe);
  ready.then(function (registration) {
    return registration.pushManager.getSubscription();
  }).then(function (subscription) {
    show(Boolean(subscription) && Notification.permission === "granted");
  }, function () {
    say("unsupported");
  });
}());
