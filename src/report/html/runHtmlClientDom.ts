/**
 * report.html's script, its first part: the DOM and text helpers the views share (`$`, `el`,
 * rates with their bands, times, a copy button, a replay line). Part of `RUN_CLIENT_SCRIPT`, inside
 * its function: not a script on its own.
 */
export const RUN_CLIENT_DOM = String.raw`
  var $ = function (id) {
    return document.getElementById(id);
  };
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'on') e.addEventListener('click', attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) {
      if (c) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }
  var pct = function (x) {
    return (x * 100).toFixed(1) + '%';
  };
  // A rate with its 95% interval: 75.0% [30%, 95%].
  var withBand = function (x, band) {
    return pct(x) + ' [' + (band[0] * 100).toFixed(0) + '%, ' + (band[1] * 100).toFixed(0) + '%]';
  };
  var secs = function (ms) {
    return '+' + (ms / 1000).toFixed(3) + 's';
  };
  var json = function (v) {
    return v === undefined ? '(missing)' : JSON.stringify(v);
  };

  function copyButton(text) {
    var b = el('button', { class: 'copy', type: 'button', text: 'copy' });
    b.addEventListener('click', function () {
      var done = function () {
        b.textContent = 'copied';
      };
      var fallback = function () {
        var area = el('textarea', {});
        area.value = text;
        document.body.appendChild(area);
        area.select();
        try {
          document.execCommand('copy');
          done();
        } catch (e) {
          b.textContent = 'select and copy';
        }
        area.remove();
      };
      if (navigator.clipboard && navigator.clipboard.writeText)
        navigator.clipboard.writeText(text).then(done, fallback);
      else fallback();
    });
    return b;
  }
  function replayLine(cmd) {
    return el('div', { class: 'replay' }, [el('code', { text: cmd }), copyButton(cmd)]);
  }
`;
