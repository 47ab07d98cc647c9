import { describe, expect, it } from 'vitest';
import { chartJsSource } from './chartJsSource.js';
import type { HtmlReport } from './HtmlReport.js';
import { escapeHtml } from './htmlPage.js';
import { renderHtmlReport } from './renderHtmlReport.js';

const report: HtmlReport = {
  title: 'a <b> & "c"',
  subtitle: 'sub',
  sections: [
    {
      id: 's0',
      title: 'Section </script>',
      description: '',
      table: { header: ['configuration', 'work'], rows: [{ cells: ['x<y', '3'], flagged: true }], legend: 'legend' },
      flags: ['x: too many'],
      charts: [
        {
          kind: 'bar',
          id: 's0-work',
          title: 'Work',
          unit: 'deliveries',
          labels: ['x<y'],
          values: [3],
          flagged: [true],
        },
        {
          kind: 'line',
          id: 's0-load',
          title: 'Load',
          x: 's',
          y: '/s',
          series: [{ label: '</script><script>alert(1)</script>', points: [[0, 1]] }],
        },
      ],
    },
  ],
};

describe('renderHtmlReport', () => {
  const html = renderHtmlReport(report);

  it('is one self-contained file: Chart.js inline, no source to fetch, a policy that forbids the network', () => {
    expect(html).toContain(chartJsSource());
    expect(html).toContain(
      `content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"`,
    );
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    expect(html).not.toContain('sourceMappingURL');
  });

  it('escapes text, and embeds the report as JSON that no string can break out of', () => {
    expect(html).toContain('<title>a &lt;b&gt; &amp; &quot;c&quot;</title>');
    expect(html).toContain('<tr class="flag"><td>x&lt;y</td><td>3</td></tr>');
    expect(html).toContain('<canvas id="s0-work" role="img" aria-label="Work"></canvas>');
    expect(html.match(/<\/script>/g)?.length).toBe(3);
    const json = /<script type="application\/json" id="faultline-data">(.*?)<\/script>/s.exec(html)?.[1];
    expect(JSON.parse(json ?? 'null')).toEqual(report);
  });

  it('escapeHtml covers the five specials', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
