/* global document, window, navigator */
// Copy buttons: <button data-copy-target="element-id" data-copied-message="..." hidden>; the
// target is an element's text or a field's value, data-copied-label the button's word after. The
// status next to the button says what was copied (data-copied-message). The button stays hidden
// without JavaScript (the value can still be selected by hand). A file, not inline script,
// because the pages' CSP allows scripts from this origin only.
(function () {
  'use strict';

  function selectText(element) {
    // A read-only field (the result page's kept link) selects its own value.
    if (typeof element.select === 'function') {
      element.focus();
      element.select();
      return;
    }
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copy(text, element) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    selectText(element);
    return document.execCommand('copy') ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }

  document.querySelectorAll('button[data-copy-target]').forEach(function (button) {
    var target = document.getElementById(button.getAttribute('data-copy-target'));
    if (!target) return;
    var status = button.parentElement && button.parentElement.querySelector('.copy-status');
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = typeof target.value === 'string' ? target.value : target.textContent;
      copy(text.trim(), target).then(
        function () {
          button.textContent = button.getAttribute('data-copied-label') || 'Copied';
          if (status)
            status.textContent = button.getAttribute('data-copied-message') || 'Copied to your clipboard.';
        },
        function () {
          selectText(target);
          if (status) status.textContent = 'Press Ctrl+C (or Cmd+C) to copy the selected text.';
        },
      );
    });
  });
})();
