// A sign-up form's hidden time_zone field takes the device's zone (accounts.forms.SignupExtras),
// so a new player's deadlines read in their own hours from the first page.
(function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  document.querySelectorAll('input[type="hidden"][name="time_zone"]').forEach(function (field) {
    if (!field.value) field.value = zone;
  });
})();
