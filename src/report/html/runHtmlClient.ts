import { RUN_CLIENT_CELL } from './runHtmlClientCell.js';
import { RUN_CLIENT_DOM } from './runHtmlClientDom.js';
import { RUN_CLIENT_TRIAL } from './runHtmlClientTrial.js';

/**
 * report.html's script: reads the embedded `RunHtmlModel` and draws the cell grid, a cell's
 * kept trials (filtered), and one trial: its lanes on its clock (virtual, or the wall clock for a command agent), its verdicts with
 * evidence that highlights the events it names, goal against final state, its replay command,
 * and for a live trial the messages exchanged with the model.
 * Plain DOM, no framework: the page must open offline from a CI artifact, and stay small.
 * `window.__faultline.ready` says the first trial is drawn (tests and the bench wait for it).
 * One function, its parts in files of their own (helpers, the grid and a cell, a trial): they share
 * its scope (`model`, `current`, `el`), so each part is text inside it, not a script of its own.
 */
export const RUN_CLIENT_SCRIPT =
  String.raw`
(function () {
  'use strict';
  var model = JSON.parse(document.getElementById('faultline-data').textContent);` +
  RUN_CLIENT_DOM +
  RUN_CLIENT_CELL +
  RUN_CLIENT_TRIAL +
  String.raw`
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
