/**
 * report.html's script: the cell grid and one cell (its fault coverage, its verdicts over every
 * trial, its kept trials, filtered). Part of `RUN_CLIENT_SCRIPT`, inside its function: not a
 * script on its own.
 */
export const RUN_CLIENT_CELL = String.raw`
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
                  el('td', { class: silent ? 'bad' : '', text: r.rule < 0 ? 'crash.agent' : 'faults[' + r.rule + ']' }),
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
`;
