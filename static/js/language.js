// The language menu: a pick from the list switches at once; the keyboard's arrows only
// choose and the button switches (WCAG 3.2.2). A script file, not attributes: the site's
// Content-Security-Policy runs no inline handler.
(function () {
  "use strict";
  var select = document.getElementById("language-select");
  if (!select) return;
  select.addEventListener("keydown", function () { select.dataset.keyed = "1"; });
  select.addEventListener("change", function () {
    if (!select.dataset.keyed) select.form.submit();
  });
})();
