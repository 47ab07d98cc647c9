/**
 * report.html's script: one trial (its lanes and events on its clock, its verdicts with evidence
 * that highlights the events it names, goal against final state, a live trial's model messages).
 * Part of `RUN_CLIENT_SCRIPT`, inside its function: not a script on its own.
 */
export const RUN_CLIENT_TRIAL = String.raw`
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
`;
