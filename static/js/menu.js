// The account menu (a <details>): Escape closes it and gives focus back to its button, and it
// closes when focus leaves it, so the open panel never covers the control focus moved to.
(function () {
  "use strict";
  var menu = document.querySelector("details.account-menu");
  if (!menu) return;
  menu.addEventListener("keydown", function (e) {
    if (e.key !== "Escape" || !menu.open) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });
  menu.addEventListener("focusout", function (e) {
    if (menu.open && e.relatedTarget && !menu.contains(e.relatedTarget)) menu.open = false;
  });
})();
