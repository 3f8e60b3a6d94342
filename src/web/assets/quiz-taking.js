/* global document, window */
// The respondent pages of a quiz taken in one attempt. A file, not inline script: the CSP allows
// scripts from this origin only. Without JavaScript the pages still work: the times read in UTC
// and the server refuses a late submission with the answers kept on the page.
// - <time data-local-time datetime="...">: rewritten in the reader's own time zone, zone named.
// - #quiz-timer (data-remaining-ms, data-warn-ms, data-sending): counts down, shows the warning
//   (#timer-warning, a live region) near the end, and submits the form at zero, once per attempt.
(function () {
  'use strict';

  var lang = document.documentElement.lang || 'en';

  document.querySelectorAll('time[data-local-time]').forEach(function (element) {
    var date = new Date(element.getAttribute('datetime'));
    if (isNaN(date.getTime())) return;
    try {
      element.textContent =
        new Intl.DateTimeFormat(lang, {
          dateStyle: 'full',
          timeStyle: 'short',
        }).format(date) +
        ' (' +
        zoneName(date) +
        ')';
    } catch {
      // An old browser keeps the server's UTC text.
    }
  });

  function zoneName(date) {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || '';
    var parts = new Intl.DateTimeFormat(lang, { timeZoneName: 'short' }).formatToParts(date);
    var short = parts.filter(function (part) {
      return part.type === 'timeZoneName';
    })[0];
    return zone && short ? zone + ', ' + short.value : zone || (short ? short.value : 'UTC');
  }

  var timer = document.getElementById('quiz-timer');
  var value = document.getElementById('timer-value');
  if (!timer || !value) return;
  var form = timer.closest('form');
  var warning = document.getElementById('timer-warning');
  var warningText = warning && warning.querySelector('[data-warning-text]');
  var end = Date.now() + Number(timer.getAttribute('data-remaining-ms'));
  var warnMs = Number(timer.getAttribute('data-warn-ms'));
  var warned = false;
  var sent = false;
  var interval;

  var tokenField = form && form.querySelector('input[name="attempt_token"]');
  var sentKey = 'quiz-sent-at-zero:' + (tokenField ? tokenField.value.split('.')[0] : '');

  function alreadySent() {
    try {
      if (window.sessionStorage.getItem(sentKey)) return true;
      window.sessionStorage.setItem(sentKey, '1');
    } catch {
      // Storage refused (private mode): the server's form without a timer still stops a loop.
    }
    return false;
  }

  function two(n) {
    return (n < 10 ? '0' : '') + n;
  }

  function show(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    value.textContent = h > 0 ? h + ':' + two(m) + ':' + two(s) : two(m) + ':' + two(s);
  }

  function tick() {
    var left = end - Date.now();
    show(left);
    if (!warned && left <= warnMs && warning && warningText) {
      warned = true;
      timer.classList.add('timer-low');
      warning.textContent = warningText.textContent;
    }
    if (left <= 0 && !sent && form) {
      sent = true;
      window.clearInterval(interval);
      // Once per attempt: a page shown again after the automatic send (a refusal, Back) never
      // sends itself a second time; the student can still press the button.
      if (alreadySent()) return;
      if (warning) warning.textContent = timer.getAttribute('data-sending');
      // Not requestSubmit: nothing may hold the answers back once the time is up.
      form.submit();
    }
  }

  if (form) {
    form.addEventListener('submit', function () {
      sent = true;
      window.clearInterval(interval);
    });
  }
  interval = window.setInterval(tick, 1000);
  tick();
})();

// - .save-bar[data-save-url]: saves the form's answers on the attempt as the student types
//   (debounced), says so in #save-status, and hides the no-script Save button. A refused save
//   (429, a network failure) keeps the answers on the page and is tried again.
(function () {
  'use strict';

  var bar = document.querySelector('.save-bar[data-save-url]');
  var form = bar && bar.closest('form');
  if (!bar || !form || !window.fetch || !window.URLSearchParams || !window.FormData) return;
  var status = document.getElementById('save-status');
  var button = bar.querySelector('button');
  if (button) button.hidden = true;
  var timer = null;
  var busy = false;
  var again = false;

  function say(key) {
    if (status) status.textContent = status.getAttribute(key) || '';
  }

  function save() {
    timer = null;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    var body = new window.URLSearchParams(new window.FormData(form));
    window
      .fetch(bar.getAttribute('data-save-url'), {
        method: 'POST',
        body: body,
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      })
      .then(function (res) {
        busy = false;
        if (res.ok) {
          say('data-saved');
          if (again) {
            again = false;
            schedule(0);
          }
          return;
        }
        if (res.status === 409 || res.status === 404) return;
        say('data-retrying');
        var wait = Number(res.headers.get('Retry-After')) || 5;
        schedule(wait * 1000);
      })
      .catch(function () {
        busy = false;
        say('data-retrying');
        schedule(5000);
      });
  }

  function schedule(ms) {
    if (timer) window.clearTimeout(timer);
    timer = window.setTimeout(save, ms);
  }

  form.addEventListener('input', function () {
    schedule(1500);
  });
  form.addEventListener('change', function () {
    schedule(1500);
  });
  form.addEventListener('submit', function () {
    if (timer) window.clearTimeout(timer);
    timer = null;
  });
})();

// - form[data-keep-answers]: a quiz taken without an attempt has nothing on the server until it
//   is sent, so a reload would lose the answers: they are kept in this browser's localStorage
//   under the quiz's key (the name too, never the email or the hidden fields: a shared computer),
//   put back on load, and #kept-status says so. [data-forget-answers] on the result page removes
//   them once the response is stored, so the next person at the computer starts empty.
(function () {
  'use strict';

  var storage;
  try {
    storage = window.localStorage;
  } catch {
    return; // Storage refused (private mode, a sandboxed frame): the form works as without script.
  }
  if (!storage) return;

  var forget = document.querySelector('[data-forget-answers]');
  if (forget) {
    try {
      storage.removeItem(forget.getAttribute('data-forget-answers'));
    } catch {
      // Nothing kept, or storage refused.
    }
  }

  var form = document.querySelector('form[data-keep-answers]');
  if (!form || !window.JSON) return;
  var key = form.getAttribute('data-keep-answers');
  var status = document.getElementById('kept-status');

  function kept(field) {
    if (!field.name || field.disabled || field.name === 'email') return false;
    return ['hidden', 'email', 'password', 'file', 'submit', 'button', 'reset'].indexOf(field.type) === -1;
  }

  // Each field's values by name, in the form's order (ticked boxes and chosen radios only).
  function read() {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!kept(field)) return;
      if ((field.type === 'radio' || field.type === 'checkbox') && !field.checked) return;
      (values[field.name] = values[field.name] || []).push(field.value);
    });
    return values;
  }

  function restore() {
    var values;
    try {
      values = JSON.parse(storage.getItem(key) || 'null');
    } catch {
      return;
    }
    if (!values || typeof values !== 'object') return;
    if (status) status.textContent = status.getAttribute('data-kept') || '';
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!kept(field) || !Object.prototype.hasOwnProperty.call(values, field.name)) return;
      var list = values[field.name];
      if (!Array.isArray(list)) return;
      if (field.type === 'radio' || field.type === 'checkbox') {
        field.checked = list.indexOf(field.value) !== -1;
        return;
      }
      var index = seen[field.name] || 0;
      seen[field.name] = index + 1;
      if (typeof list[index] === 'string') field.value = list[index];
    });
  }

  function keep() {
    try {
      storage.setItem(key, JSON.stringify(read()));
      if (status) status.textContent = status.getAttribute('data-kept') || '';
    } catch {
      // Storage full or refused: the answers stay on the page as without script.
    }
  }

  restore();
  form.addEventListener('input', keep);
  form.addEventListener('change', keep);
})();
