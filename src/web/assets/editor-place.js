/* global document */
// The quiz editor's buttons (add, move, remove) post the form to its address with a fragment, so
// the page comes back scrolled to the change without script. Browsers skip `autofocus` on a page
// opened at a fragment, so this focuses the element the server named (data-focus): the keyboard
// stays where the teacher was.
(function () {
  'use strict';
  var form = document.querySelector('form[data-focus]');
  var target = form && document.getElementById(form.getAttribute('data-focus'));
  if (target) target.focus();
})();
