/**
 * report.html's script: reads the embedded `RunHtmlModel` and draws the cell grid, a cell's
 * kept trials (filtered), and one trial: its lanes on its clock (virtual, or the wall clock for a command agent), its verdicts with
 * evidence that highlights the events it names, goal against final state, its replay command,
 * and for a live trial the messages exchanged with the model.
 * Plain DOM, no framework: the page must open offline from a CI artifact, and stay small.
 * `window.__faultline.ready` says the first trial is drawn (tests and the bench wait for it).
 */
export const RUN_CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var model = JSON.parse(document.getElementById('faultline-data').textContent);
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

  var current = { cell: null, filter: 'all', trial: null };

  function drawGrid() {
    // With k = 1, pass^k is pass^1: one column.
    var many = model.run.k > 1;
    // Only a run with a scenario that heals and expects a recovery gets the column.
    var healed = model.cells.some(function (c) {
      return c.recovery;
    });
    var head = el(
      'tr',
      {},
      ['scenario', model.run.columns, 'trials', 'pass^1']
        .concat(
          many ? ['pass^' + model.run.k] : [],
          ['duplicates', 'budget violations'],
          healed ? ['recovered (p50, p95 after heal)'] : [],
          ['failing checks']
        )
        .map(function (h) {
          return el('th', { text: h });
        })
    );
    var rows = model.cells.map(function (c) {
      var checks = Object.keys(c.checkFailures)
        .map(function (n) {
          return n + ' ' + c.checkFailures[n];
        })
        .concat(c.notExercised.length > 0 ? ['not exercised'] : [])
        .join(', ');
      var bad = c.status === 'failed' || c.notExercised.length > 0;
      var tr = el(
        'tr',
        { class: 'cell ' + (bad ? 'failed' : 'passed'), 'data-cell': c.id, tabindex: '0' },
        [
          el('td', { text: (bad ? '✗ ' : '✓ ') + c.scenario }),
          el('td', { text: c.config }),
          el('td', { text: c.successes + '/' + c.trials }),
          el('td', { text: withBand(c.pass1, c.pass1Interval) })
        ].concat(
          many ? [el('td', { text: withBand(c.passK, c.passKInterval) })] : [],
          [
            el('td', { class: c.duplicates > 0 ? 'bad' : '', text: String(c.duplicates) }),
            el('td', { class: c.budgetViolations > 0 ? 'bad' : '', text: String(c.budgetViolations) })
          ].concat(healed ? [recoveryCell(c)] : [], [el('td', { text: checks })])
        )
      );
      tr.addEventListener('click', function () {
        selectCell(c);
      });
      return tr;
    });
    $('grid').replaceChildren(el('thead', {}, [head]), el('tbody', {}, rows));
  }

  function recoveryCell(c) {
    var r = c.recovery;
    if (!r) return el('td', { text: '' });
    var time = function (ms) {
      return ms === null ? 'never' : (ms / 1000).toFixed(3) + 's';
    };
    return el('td', {
      class: r.recovered < r.trials ? 'bad' : '',
      text:
        r.recovered +
        '/' +
        r.trials +
        ' ' +
        withBand(r.trials === 0 ? 0 : r.recovered / r.trials, r.interval) +
        ' (' +
        time(r.p50) +
        ', ' +
        time(r.p95) +
        ')'
    });
  }

  function shownTrials(c) {
    return c.kept.filter(function (t) {
      if (current.filter === 'all') return true;
      if (current.filter === 'failed') return t.status === 'failed';
      return t.failed.indexOf(current.filter) >= 0;
    });
  }

  function selectCell(c) {
    current.cell = c;
    current.filter = 'all';
    document.querySelectorAll('tr.cell').forEach(function (r) {
      r.classList.toggle('selected', r.getAttribute('data-cell') === c.id);
    });
    var checks = {};
    c.kept.forEach(function (t) {
      t.failed.forEach(function (n) {
        checks[n] = true;
      });
    });
    var filter = el(
      'select',
      { id: 'filter', 'aria-label': 'filter trials' },
      [
        el('option', { value: 'all', text: 'all kept trials' }),
        el('option', { value: 'failed', text: 'failed' })
      ].concat(
        Object.keys(checks).map(function (n) {
          return el('option', { value: n, text: 'failed ' + n });
        })
      )
    );
    filter.addEventListener('change', function () {
      current.filter = filter.value;
      drawTrialList();
    });
    var verdicts = el(
      'ul',
      { class: 'verdicts' },
      c.verdicts.map(function (g) {
        return el('li', { class: g.status }, [
          el('span', {
            text:
              g.trials +
              ' trial' +
              (g.trials === 1 ? '' : 's') +
              ' ' +
              (g.status === 'passed' ? 'passed' : 'failed ' + g.failed.join(', ')) +
              ' (first: trial ' +
              g.first +
              ')'
          }),
          replayLine(g.replay)
        ]);
      })
    );
    var elided =
      c.elided > 0
        ? el('p', {
            class: 'note',
            text:
              c.elided +
              ' more failing trials are counted but not kept (--keep-failures ' +
              model.run.keepFailures +
              '); replay them by their trial number.'
          })
        : null;
    // Fault coverage: a rule that fired in no trial leaves the cell not exercised.
    var coverage =
      c.coverage.length === 0
        ? el('p', { class: 'note', text: 'no fault rule' })
        : el(
            'table',
            { class: 'coverage' },
            [
              el(
                'tr',
                {},
                ['rule', 'match, fault', 'fired in', 'firings'].map(function (h) {
                  return el('th', { text: h });
                })
              )
            ].concat(
              c.coverage.map(function (r) {
                var silent = r.mustFire && r.trials === 0;
                return el('tr', { class: silent ? 'silent' : '' }, [
                  el('td', { class: silent ? 'bad' : '', text: 'faults[' + r.rule + ']' }),
                  el('td', { text: r.label }),
                  el('td', {
                    class: silent ? 'bad' : '',
                    text: r.trials + '/' + c.trials + ' trials' + (r.mustFire ? '' : ' (may not fire)')
                  }),
                  el('td', { text: String(r.firings) })
                ]);
              })
            )
          );
    var silentLines = c.notExercised.map(function (m) {
      return el('p', { class: 'not-exercised bad', text: m });
    });
    $('cell').replaceChildren.apply(
      $('cell'),
      [el('h2', { text: c.scenario + ' × ' + c.config }), el('h3', { text: 'fault coverage' }), coverage]
        .concat(silentLines)
        .concat([
          el('h3', { text: 'verdicts, every trial' }),
          verdicts,
          el('h3', {}, ['kept trials ', filter]),
          el('div', { id: 'trial-list' })
        ])
        .concat(elided ? [elided] : [])
    );
    drawTrialList();
  }

  function drawTrialList() {
    var list = shownTrials(current.cell);
    $('trial-list').replaceChildren.apply(
      $('trial-list'),
      list.length === 0
        ? [el('p', { class: 'note', text: 'no kept trial matches' })]
        : list.map(function (t) {
            return el('button', {
              type: 'button',
              class: 'trial ' + t.status,
              'data-trial': String(t.index),
              on: function () {
                selectTrial(t);
              },
              text: 'trial ' + t.index + (t.status === 'failed' ? ' ✗ ' + t.failed.join(', ') : ' ✓')
            });
          })
    );
    if (list.length > 0) selectTrial(list[0]);
    else $('trial').replaceChildren();
  }

  function highlight(seqs) {
    var wanted = {};
    seqs.forEach(function (s) {
      wanted[s] = true;
    });
    var first = null;
    document.querySelectorAll('[data-seq]').forEach(function (r) {
      var on = wanted[r.getAttribute('data-seq')] === true;
      r.classList.toggle('hl', on);
      if (on && !first && r.tagName === 'TR') first = r;
    });
    if (first) first.scrollIntoView({ block: 'center' });
  }

  function drawLanes(t) {
    var end = Math.max(1, t.durationMs, t.events.length ? t.events[t.events.length - 1].t : 0);
    return el(
      'div',
      { class: 'lanes' },
      model.lanes
        .map(function (lane) {
          var marks = t.events
            .filter(function (e) {
              return e.lane === lane;
            })
            .map(function (e) {
              return el('span', {
                class: 'tick ' + e.mark,
                'data-seq': String(e.seq),
                title: secs(e.t) + ' ' + e.text,
                style: 'left:' + ((100 * e.t) / end).toFixed(2) + '%'
              });
            });
          return el('div', { class: 'lane' }, [
            el('span', { class: 'lane-name', text: lane }),
            el('div', { class: 'track' }, marks)
          ]);
        })
        .concat([el('div', { class: 'axis' }, [el('span', { text: secs(0) }), el('span', { text: secs(end) })])])
    );
  }

  function drawEvents(t) {
    var head = el(
      'tr',
      {},
      [el('th', { text: t.clock + ' time' })].concat(
        model.lanes.map(function (l) {
          return el('th', { text: l });
        })
      )
    );
    var rows = t.events.map(function (e) {
      return el(
        'tr',
        { class: 'ev ' + e.mark, 'data-seq': String(e.seq), 'data-lane': e.lane },
        [el('td', { class: 'time', text: secs(e.t) })].concat(
          model.lanes.map(function (l) {
            return el(
              'td',
              l === e.lane
                ? {
                    class: 'lane-' + l,
                    text:
                      (e.mark === 'duplicate'
                        ? 'DUPLICATE '
                        : e.mark === 'fault'
                          ? 'FAULT '
                          : e.mark === 'heal'
                            ? 'HEAL '
                            : '') + e.text
                  }
                : {}
            );
          })
        )
      );
    });
    return el('table', { class: 'events' }, [el('thead', {}, [head]), el('tbody', {}, rows)]);
  }

  function drawChecks(t) {
    return el(
      'ul',
      { class: 'checks' },
      t.checks.map(function (c) {
        var name = el('b', {
          text: c.name + ': ' + (c.valid === true ? 'passed' : c.valid === false ? 'failed' : 'unknown')
        });
        var items = c.evidence.map(function (ev, i) {
          return el(
            'button',
            {
              type: 'button',
              class: 'evidence',
              'data-check': c.name,
              'data-evidence': String(i),
              title: ev.events.length + ' events',
              on: function () {
                document.querySelectorAll('button.evidence').forEach(function (b) {
                  b.classList.remove('active');
                });
                this.classList.add('active');
                highlight(ev.events);
              }
            },
            [
              el('pre', { text: JSON.stringify(ev.data, null, 1) }),
              el('span', {
                class: 'note',
                text:
                  ev.events.length === 0
                    ? 'names no event'
                    : 'show its ' + ev.events.length + ' event' + (ev.events.length === 1 ? '' : 's')
              })
            ]
          );
        });
        return el(
          'li',
          { class: c.valid === true ? 'passed' : 'failed' },
          [name, c.message ? ' ' + c.message : ''].concat(items)
        );
      })
    );
  }

  function drawDiff(t) {
    var goal = t.checks.filter(function (c) {
      return c.name === 'goal-state';
    })[0];
    if (t.diff.length === 0)
      return el('p', {
        class: 'note',
        text: goal && goal.valid === true ? 'the final state matches the goal' : 'no goal-state difference recorded'
      });
    return el('table', { class: 'diff' }, [
      el('thead', {}, [
        el(
          'tr',
          {},
          ['where', 'goal', 'final state'].map(function (h) {
            return el('th', { text: h });
          })
        )
      ]),
      el(
        'tbody',
        {},
        t.diff.map(function (d) {
          return el('tr', {}, [
            el('td', { text: d.path }),
            el('td', { class: 'want', text: json(d.expected) }),
            el('td', { class: 'got', text: json(d.actual) })
          ]);
        })
      )
    ]);
  }

  // A live trial's conversation with its model: per request, what the agent sent since the model last spoke, then its answer.
  function drawExchanges(t) {
    return el(
      'ol',
      { class: 'exchanges' },
      t.exchanges.map(function (x, i) {
        var sent = x.sent.map(function (m) {
          return el('div', { class: 'msg sent role-' + m.role }, [
            el('b', { text: m.role }),
            el('pre', { text: m.text })
          ]);
        });
        var calls = x.toolCalls.map(function (c) {
          return el('div', { class: 'msg call' }, [
            el('b', { text: 'calls ' + c.name }),
            el('pre', { text: c.arguments })
          ]);
        });
        var answer =
          x.answer === ''
            ? []
            : [
                el('div', { class: 'msg answer' }, [
                  el('b', { text: 'model' + (x.status >= 300 ? ' (' + x.status + ')' : '') }),
                  el('pre', { text: x.answer })
                ])
              ];
        return el('li', { class: 'exchange', 'data-exchange': String(i) }, sent.concat(answer, calls));
      })
    );
  }

  function selectTrial(t) {
    current.trial = t;
    document.querySelectorAll('button.trial').forEach(function (b) {
      b.classList.toggle('selected', b.getAttribute('data-trial') === String(t.index));
    });
    var body =
      t.events.length === 0
        ? [el('p', { class: 'note', text: 'history not kept (a passing trial): replay it to see its events' })]
        : [el('h3', { text: 'timeline (' + t.clock + ' clock)' }), drawLanes(t), drawEvents(t)];
    $('trial').replaceChildren.apply(
      $('trial'),
      [el('h2', { text: 'trial ' + t.index + ': ' + t.status + ', ' + t.end }), replayLine(t.replay)]
        .concat([
          el('div', { class: 'side' }, [
            el('div', {}, [el('h3', { text: 'verdicts' }), drawChecks(t)]),
            el('div', {}, [el('h3', { text: 'goal and final state' }), drawDiff(t)])
          ])
        ])
        .concat(
          t.exchanges.length > 0
            ? [el('h3', { text: 'model messages (' + t.exchanges.length + ' requests)' }), drawExchanges(t)]
            : []
        )
        .concat(body)
    );
  }

  $('summary').textContent =
    'seed ' +
    model.run.seed +
    ', k ' +
    model.run.k +
    ', ' +
    model.run.trials +
    ' trials, ' +
    model.run.failedTrials +
    ' failed' +
    (model.run.interrupted ? ' (interrupted: partial)' : '');
  $('gates').replaceChildren.apply(
    $('gates'),
    model.gates.map(function (g) {
      return el('li', { class: g.passed ? 'passed' : 'failed' }, [
        el('b', { text: g.passed ? '✓ ' : '✗ ' }),
        g.message
      ]);
    })
  );
  drawGrid();
  if (model.cells.length > 0) selectCell(model.cells[0]);
  window.__faultline = { ready: true, cells: model.cells.length };
})();
`;
