import { describe, expect, it } from 'vitest';
import { evaluateGates, parseGate } from '../stats/gates.js';
import { renderJunitReport } from './junit.js';
import { makeRun, sampleRun } from './testing.js';
import { parseXml, xmlElements } from './testing/parseXml.js';
import { escapeXmlAttr, escapeXmlText } from './xml.js';

describe('parseXml (the tests’ well-formedness check)', () => {
  it.each([
    ['<a>1 < 2</a>', 'expected an element name'],
    ['<a b="<"/>', 'unescaped "<"'],
    ['<a>fish & chips</a>', 'unterminated entity'],
    ['<a b="1" b="2"/>', 'repeated attribute b'],
    ['<a><b></a></b>', '</a> closes <b>'],
    ['<a/><b/>', 'content after the root element'],
    ['<a b="x"c="y"/>', 'expected whitespace before an attribute'],
    ['<a>&nbsp;</a>', 'unknown entity'],
  ])('rejects %s', (xml, why) => {
    expect(() => parseXml(xml)).toThrow(why);
  });

  it('decodes entities in text and attributes', () => {
    expect(parseXml(`<?xml version="1.0"?>\n<a t='&lt;&amp;&quot;&apos;&gt;&#10;'>x &#x41;&amp;<b/></a>`)).toEqual({
      name: 'a',
      attrs: { t: `<&"'>\n` },
      children: [{ name: 'b', attrs: {}, children: [], text: '' }],
      text: 'x A&',
    });
  });
});

describe('JUnit report', () => {
  it('has one suite per configuration and one case per scenario, failing where a trial failed', () => {
    const run = sampleRun();
    const root = parseXml(renderJunitReport(run));
    expect(root.name).toBe('testsuites');
    expect(root.attrs).toMatchObject({ tests: '4', failures: '1', errors: '0', skipped: '0' });
    const suites = xmlElements(root, 'testsuite');
    expect(suites.map((s) => [s.attrs['name'], s.attrs['tests'], s.attrs['failures']])).toEqual([
      ['naive', '2', '1'],
      ['rulebook', '2', '0'],
    ]);
    const suiteProps = suites[0]!.children.find((c) => c.name === 'properties')!;
    expect(xmlElements(suiteProps, 'property').map((p) => [p.attrs['name'], p.attrs['value']])).toEqual([
      ['seed', '42'],
      ['k', '4'],
      ['config', 'naive'],
      ['interrupted', 'false'],
    ]);
    const cases = xmlElements(root, 'testcase');
    expect(cases.map((c) => `${c.attrs['classname']}/${c.attrs['name']}/${xmlElements(c, 'failure').length}`)).toEqual([
      'naive/order-partial-write/1',
      'naive/rate-limit-storm/0',
      'rulebook/order-partial-write/0',
      'rulebook/rate-limit-storm/0',
    ]);
    expect(xmlElements(cases[0]!, 'property').map((p) => [p.attrs['name'], p.attrs['value']])).toEqual([
      ['pass^1', '0.500'],
      ['pass^1 95% interval', '[0.068, 0.932]'],
      ['pass^4', '0.000'],
      ['pass^4 95% interval', '[0.000, 0.756]'],
      ['pass@4', '1.000'],
      ['pass@4 95% interval', '[0.244, 1.000]'],
      ['model_tokens_in', '0'],
      ['model_tokens_out', '0'],
      ['faults[0] create_order attempt 1, partial_write', 'fired in 4/4 trials, 4 times'],
    ]);
    const failure = xmlElements(cases[0]!, 'failure')[0]!;
    expect(failure.attrs['message']).toBe('2 of 4 trials failed: duplicates, budget');
    expect(failure.text).toBe(
      [
        'trial 1 (seed 42001, end agent_ended): failed duplicates',
        '  duplicates: orders:ref-1 was created 2 times',
        '    evidence: [{"subject":"orders:ref-1","effects":[0,1]}]',
        '  replay: faultline replay order-partial-write --config naive --seed 42 --trial 1',
        'trial 3 (seed 42003, end agent_ended): failed budget',
        '  budget: call-1 made 5 attempts (limit 3)',
        '  replay: faultline replay order-partial-write --config naive --seed 42 --trial 3',
      ].join('\n'),
    );
  });

  it('escapes names, messages and evidence containing <&"\'>', () => {
    const nasty = `<&"'>`;
    const run = makeRun({
      seed: 7,
      k: 1,
      cells: [
        {
          scenario: `s${nasty}`,
          config: `c${nasty}`,
          fail: {
            0: [
              { check: 'goal-state', message: `expected ${nasty}]]> got \u0001`, evidence: [{ html: '</failure>' }] },
            ],
          },
        },
      ],
    });
    const xml = renderJunitReport(run);
    const root = parseXml(xml);
    const testcase = xmlElements(root, 'testcase')[0]!;
    expect(testcase.attrs).toEqual({ classname: `c${nasty}`, name: `s${nasty}` });
    expect(xmlElements(root, 'testsuite')[0]!.attrs['name']).toBe(`c${nasty}`);
    const body = xmlElements(testcase, 'failure')[0]!.text;
    expect(body).toContain(`goal-state: expected ${nasty}]]> got \uFFFD`);
    expect(body).toContain('evidence: [{"html":"</failure>"}]');
    expect(body).toContain(`replay: faultline replay 's<&"'\\''>' --config 'c<&"'\\''>' --seed 7 --trial 0`);
    expect(xml).not.toContain('\u0001');
  });

  it('marks cells an interrupted run never reached as skipped', () => {
    const run = {
      ...makeRun({ k: 2, cells: [{ scenario: 'a', config: 'c' }], interrupted: true }),
      scenarios: ['a', 'b'],
    };
    const root = parseXml(renderJunitReport(run));
    expect(root.attrs['skipped']).toBe('1');
    const b = xmlElements(root, 'testcase').find((c) => c.attrs['name'] === 'b')!;
    expect(xmlElements(b, 'skipped')[0]!.attrs['message']).toBe('not run: the run was interrupted');
  });

  it('adds the gates as a suite when given', () => {
    const run = sampleRun();
    const gates = evaluateGates(run, ['duplicates==0', 'config=rulebook:pass^k>=1'].map(parseGate));
    const root = parseXml(renderJunitReport(run, { gates }));
    const suite = xmlElements(root, 'testsuite').find((s) => s.attrs['name'] === 'faultline gates')!;
    expect(suite.attrs).toMatchObject({ tests: '2', failures: '1' });
    expect(
      xmlElements(suite, 'testcase').map((c) => [c.attrs['name'], xmlElements(c, 'failure')[0]?.attrs['message']]),
    ).toEqual([
      ['duplicates==0', 'duplicates==0 failed in 1 of 4 cells: order-partial-write × naive (1)'],
      ['config=rulebook:pass^k>=1', undefined],
    ]);
    expect(root.attrs).toMatchObject({ tests: '6', failures: '2' });
  });
});

describe('XML escaping', () => {
  it('escapes text and attributes', () => {
    expect(escapeXmlText(`a<b>&"'`)).toBe(`a&lt;b&gt;&amp;"'`);
    expect(escapeXmlAttr(`a<b>&"'\n\t`)).toBe('a&lt;b&gt;&amp;&quot;&apos;&#10;&#9;');
    expect(escapeXmlText('\u0000\u001f\uD800ok\u{1F600}')).toBe('\uFFFD\uFFFD\uFFFDok\u{1F600}');
  });
});
