import type { JsonReport } from '../json.js';
import { htmlPage } from './htmlPage.js';
import { RUN_CLIENT_SCRIPT } from './runHtmlClient.js';
import { runHtmlModel } from './runHtmlModel.js';

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 20px; color: #222; background: #fff; font-size: 13px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 20px 0 6px; }
h3 { font-size: 14px; margin: 14px 0 4px; }
.note, #summary { color: #555; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
#grid tr.cell { cursor: pointer; }
#grid tr.failed td:first-child { color: #b00; font-weight: 600; }
#grid tr.selected { background: #eef4ff; }
td.bad { color: #b00; font-weight: 600; }
ul.verdicts, ul.checks { padding-left: 18px; }
li.failed > b { color: #b00; }
li.passed > b { color: #171; }
.replay { display: flex; gap: 6px; align-items: center; margin: 4px 0; }
.replay code { background: #f4f4f4; padding: 2px 6px; border-radius: 3px; }
button { font: inherit; cursor: pointer; }
button.trial { margin: 2px; border: 1px solid #ccc; background: #fafafa; border-radius: 3px; }
button.trial.failed { color: #b00; }
button.trial.selected { background: #eef4ff; border-color: #5b8def; }
button.evidence {
  display: block;
  text-align: left;
  border: 1px solid #ddd;
  background: #fcfcfc;
  margin: 4px 0;
  padding: 2px 6px;
  max-width: 100%;
}
button.evidence.active { border-color: #e0a800; background: #fff8dc; }
button.evidence pre { margin: 0; white-space: pre-wrap; font-size: 11px; max-height: 9em; overflow: auto; }
.side { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; }
table.diff td.want { color: #171; }
table.diff td.got { color: #b00; }
.lanes { border: 1px solid #ddd; padding: 6px 8px; margin: 6px 0; }
.lane { display: flex; align-items: center; height: 18px; }
.lane-name { width: 80px; color: #555; }
.track { position: relative; flex: 1; height: 10px; border-bottom: 1px dotted #bbb; }
.tick { position: absolute; top: 0; width: 4px; height: 10px; margin-left: -2px; background: #7a9cc6; }
.tick.fault { background: #d62728; }
.tick.effect { background: #2ca02c; }
.tick.duplicate { background: #ff7f0e; }
.tick.heal { background: #1f77b4; width: 2px; height: 14px; top: -2px; margin-left: -1px; }
.axis { display: flex; justify-content: space-between; margin-left: 80px; color: #777; font-size: 11px; }
table.events td { font-family: ui-monospace, monospace; font-size: 11.5px; white-space: pre-wrap; }
table.events td.time { color: #777; white-space: nowrap; }
table.events td[class^="lane-"] { background: #f6f8fb; }
tr.ev.fault td[class^="lane-"] { background: #fde2e2; color: #900; font-weight: 600; }
tr.ev.effect td[class^="lane-"] { background: #e3f5e3; }
tr.ev.duplicate td[class^="lane-"] { background: #ffe8cc; color: #a40; font-weight: 600; }
tr.ev.heal td[class^="lane-"] { background: #dcebf7; color: #1f4e79; font-weight: 600; }
ol.exchanges { padding-left: 22px; }
li.exchange { margin: 6px 0; border-left: 3px solid #d8e2f0; padding-left: 8px; }
.msg b { color: #555; font-weight: 600; }
.msg pre {
  margin: 1px 0 4px;
  white-space: pre-wrap;
  font-size: 11.5px;
  max-height: 14em;
  overflow: auto;
  background: #f7f7f7;
  padding: 3px 6px;
}
.msg.answer b, .msg.call b { color: #1f4e9c; }
.msg.call pre { background: #eef4ff; }
tr.ev.hl td { outline: 2px solid #e0a800; background: #fff3b0 !important; }
.tick.hl { outline: 2px solid #e0a800; height: 14px; top: -2px; }
`;

/**
 * report.html: one self-contained file that shows a run (the JSON report's data), as the
 * JSON report keeps it: every cell, the first failing trials of each in full. Its data sits
 * in a `<script type="application/json">` with every `<` escaped, so neither `</script>`
 * nor `<!--` in an event's text can end it; a content security policy forbids any fetch.
 */
export function renderRunHtml(report: JsonReport): string {
  const model = runHtmlModel(report);
  return htmlPage({
    title: model.title,
    style: STYLE,
    body: [
      '<p id="summary"></p>',
      '<ul id="gates" class="checks"></ul>',
      '<table id="grid"></table>',
      '<section id="cell"></section>',
      '<section id="trial"></section>',
    ].join('\n'),
    data: model,
    scripts: [RUN_CLIENT_SCRIPT],
  });
}
