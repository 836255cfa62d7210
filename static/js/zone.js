// The device's time zone, for the two places that ask for it (accounts.forms):
// - a sign-up form's hidden time_zone field takes it, so a new player's deadlines read in
//   their own hours from the first page;
// - the profile's "Use this device's time zone" button appears when the saved zone is another
//   one, and picks it in the list (the player still saves).
(function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!zone) return;
  document.querySelectorAll('input[type="hidden"][name="time_zone"]').forEach(function (field) {
    if (!field.value) field.value = zone;
  });
  document.querySelectorAll("[data-device-zone]").forEach(function (button) {
    var select = button.closest("form").querySelector('select[name="time_zone"]');
    var offered = select && Array.prototype.some.call(select.options, function (o) {
      return o.value === zone;
    });
    if (!offered || select.value === zone) return;
    button.querySelector("bdi").textContent = zone.replace(/_/g, " ");
    button.hidden = false;
    button.addEventListener("click", function () {
      select.value = zone;
      button.hidden = true;
      select.focus();
    });
  });
})();
