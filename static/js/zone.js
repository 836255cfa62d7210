// The device's time zone, for the two places that ask for it (accounts.forms):
// - a sign-up form's hidden time_zone field takes it, so a new player's deadlines read in
//   their own hours from the first page;
// - the profile's "Use this device's time zone" button appears when the saved zone is another
//   one, and picks it in the list (the player still saves). It names the zone as the list does.
(function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!zone) return;
  document.querySelectorAll('input[type="hidden"][name="time_zone"]').forEach(function (field) {
    if (!field.value) field.value = zone;
  });
  // the list offers current names ("Asia/Kolkata"); a browser may report an older one
  var oldNames = document.getElementById("old-zone-names");
  if (oldNames) {
    try { zone = JSON.parse(oldNames.textContent)[zone] || zone; } catch (e) { /* keep it */ }
  }
  document.querySelectorAll("[data-device-zone]").forEach(function (button) {
    var select = button.closest("form").querySelector('select[name="time_zone"]');
    var option = select && Array.prototype.find.call(select.options, function (o) {
      return o.value === zone;
    });
    if (!option || select.value === zone) return;
    button.querySelector("bdi").textContent = option.textContent;  // "Česko — Praha"
    button.hidden = false;
    button.addEventListener("click", function () {
      select.value = zone;
      button.hidden = true;
      select.focus();
    });
  });
})();
