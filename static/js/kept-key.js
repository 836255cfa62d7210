// A form's key survives the back button (games/forms.py, KeptKeyInput). The browser puts back
// only values the page itself set: the key the server wrote is set again here, once, with a
// mark (KeptKeyInput.MARK). A form put back holds the marked key of the first visit; it is left
// as it is. A refused form is drawn with its key unmarked, so marking it gives the key it sent.
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("input[data-kept-key]"), function (input) {
    if (input.value === input.defaultValue) input.value = input.defaultValue + "-kept";
  });
})();
